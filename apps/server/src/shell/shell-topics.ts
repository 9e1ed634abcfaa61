/**
 * Server-internal topic a node carrying a session listens on, so an administrator's "terminate"
 * reaches it from any node. Outside the device prefix: no device may publish or subscribe here.
 */
export const shellControlTopic = (sessionId: string) => `mowerline/v1/server/shell/${sessionId}/ctl`;
