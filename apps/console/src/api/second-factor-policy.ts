/**
 * The second-factor part of the one error policy (request.ts). STEP_UP_REQUIRED asks the mounted
 * step-up dialog (two-factor/StepUpModal.tsx) for a confirmation and retries the call once it is
 * given; TWO_FACTOR_ENROL_REQUIRED sends the account to the enrolment screen in the user center.
 */
type Prompt = () => Promise<boolean>;

let prompt: Prompt | null = null;
let pending: Promise<boolean> | null = null;

/** The dialog registers itself while mounted; the last one mounted answers. */
export function setStepUpPrompt(next: Prompt | null): void {
  prompt = next;
}

/** Resolves true once the user confirmed (the server then lets step-up actions through), false if cancelled. */
export function confirmStepUp(): Promise<boolean> {
  if (!prompt) return Promise.resolve(false);
  // Calls refused together share one dialog.
  pending ??= prompt().finally(() => {
    pending = null;
  });
  return pending;
}

export const ENROLMENT_HASH = '#/user/center?tab=security';

export function goToEnrolment(): void {
  if (!window.location.hash.startsWith('#/user/center')) window.location.hash = ENROLMENT_HASH;
}
