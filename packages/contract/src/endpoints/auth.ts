import {
  captchaBodySchema,
  captchaResultSchema,
  changePasswordBodySchema,
  doneSchema,
  forgotPasswordBodySchema,
  loginBodySchema,
  loginResultSchema,
  profileBodySchema,
  registerBodySchema,
  registerResultSchema,
  resetPasswordBodySchema,
  userInfoSchema,
} from '../auth.ts';
import { endpoint, publicAccess, staff } from '../endpoint.ts';

const tag = 'auth';

/**
 * Sign-in and the signed-in user's own account (docs/api.md "Authentication and the
 * security token"). Sign-in, registration and the services audit themselves: their system-log
 * rows name the would-be actor, which the registrar cannot know.
 */
export const authApi = {
  signIn: endpoint({
    method: 'POST',
    path: '/api/admin/user/login',
    access: publicAccess,
    tag,
    summary: 'Sign in: access token and browser trust token',
    body: loginBodySchema,
    response: loginResultSchema,
    rateLimit: 'account',
    errors: ['LOGIN_FAILED', 'CAPTCHA_REQUIRED', 'CAPTCHA_INVALID', 'ACCOUNT_LOCKED', 'ACCOUNT_PENDING', 'ACCOUNT_DISABLED', 'SECOND_FACTOR_REQUIRED'],
  }),
  captcha: endpoint({
    method: 'POST',
    path: '/api/admin/user/verification-code',
    access: publicAccess,
    tag,
    summary: 'A proof-of-work captcha challenge (single use, 5 minutes, harder with each failure)',
    body: captchaBodySchema,
    response: captchaResultSchema,
    rateLimit: 'account',
  }),
  logout: endpoint({
    method: 'POST',
    path: '/api/admin/user/logout',
    access: staff(),
    tag,
    summary: 'Sign out: the access token dies on the server',
    response: doneSchema,
    audit: 'auth.logout',
    enrolmentAllowed: true,
  }),
  info: endpoint({
    method: 'GET',
    path: '/api/admin/user/info',
    access: staff('profile'),
    tag,
    summary: 'The signed-in user (session state and user center)',
    response: userInfoSchema,
    enrolmentAllowed: true,
  }),
  updateProfile: endpoint({
    method: 'PUT',
    path: '/api/admin/user/profile',
    access: staff('profile'),
    tag,
    summary: 'Edit my own basic information',
    body: profileBodySchema,
    response: userInfoSchema,
  }),
  register: endpoint({
    method: 'POST',
    path: '/api/admin/user/register',
    access: publicAccess,
    tag,
    summary: 'Ask for a staff account (pending until an admin approves it)',
    body: registerBodySchema,
    response: registerResultSchema,
    rateLimit: 'account',
    errors: ['USERNAME_TAKEN', 'WEAK_PASSWORD', 'FORM_LIMITED'],
  }),
  changePassword: endpoint({
    method: 'PUT',
    path: '/api/admin/user/password',
    access: staff('profile'),
    tag,
    summary: 'Change my password (signs out my other sessions)',
    body: changePasswordBodySchema,
    response: doneSchema,
    // Limited too: a stolen session must not be able to guess the current password quickly.
    rateLimit: 'account',
    errors: ['WRONG_OLD_PASSWORD', 'SAME_PASSWORD', 'WEAK_PASSWORD'],
  }),
  forgotPassword: endpoint({
    method: 'POST',
    path: '/api/admin/user/forgot-password',
    access: publicAccess,
    tag,
    summary: 'Mail a reset link; always answers success',
    body: forgotPasswordBodySchema,
    response: doneSchema,
    rateLimit: 'account',
  }),
  resetPassword: endpoint({
    method: 'POST',
    path: '/api/admin/user/reset-password',
    access: publicAccess,
    tag,
    summary: 'Set a new password with a mailed reset link (single use)',
    body: resetPasswordBodySchema,
    response: doneSchema,
    rateLimit: 'account',
    errors: ['RESET_TOKEN_INVALID', 'WEAK_PASSWORD'],
  }),
};
