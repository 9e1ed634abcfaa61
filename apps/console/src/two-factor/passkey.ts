import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { twoFactorApi, webauthnResponseSchema, type StepUpBody } from '@mowerline/contract';
import { call } from '../api/endpoint-client.ts';

/**
 * The browser side of passkeys (`@simplewebauthn/browser`): the server hands out the options and
 * keeps the challenge; the authenticator signs; the server verifies.
 */
type Options = Parameters<typeof startAuthentication>[0]['optionsJSON'];
type CreationOptions = Parameters<typeof startRegistration>[0]['optionsJSON'];
const asResponse = (value: unknown) => webauthnResponseSchema.parse(JSON.parse(JSON.stringify(value)));

/** Registers a new passkey; the first factor's recovery codes come back. */
export async function registerPasskey(name: string): Promise<string[] | null> {
  const { factorId, options } = await call(twoFactorApi.webauthnStart, { body: { name } });
  const response = await startRegistration({ optionsJSON: options as unknown as CreationOptions });
  return (await call(twoFactorApi.webauthnConfirm, { body: { factorId, response: asResponse(response) } })).recoveryCodes;
}

/** A passkey assertion for a sign-in's second step. */
export async function passkeyForSignIn(challengeId: string) {
  const options = await call(twoFactorApi.loginWebauthnOptions, { body: { challengeId } });
  return asResponse(await startAuthentication({ optionsJSON: options as unknown as Options }));
}

/** The step-up body of a passkey confirmation. */
export async function passkeyForStepUp(): Promise<StepUpBody> {
  const { challengeId, options } = await call(twoFactorApi.stepUpWebauthnOptions, {});
  return { challengeId, webauthn: asResponse(await startAuthentication({ optionsJSON: options as unknown as Options })) };
}
