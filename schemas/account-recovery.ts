// Account recovery (/auth/password/…, /auth/verify/resend) request and response bodies.
import { Type } from '@sinclair/typebox';
import { MAX_PASSWORD_BYTES, MIN_PASSWORD_LENGTH, PublicUser } from './auth.ts';

const password = (description: string) => Type.String({ minLength: MIN_PASSWORD_LENGTH, description: `${description}: at least ${MIN_PASSWORD_LENGTH} characters and at most ${MAX_PASSWORD_BYTES} bytes in UTF-8 after NFC` });

export const EmailBody = Type.Object({ email: Type.String({ minLength: 1, maxLength: 320 }) });

export const AcceptedResponse = Type.Object({ success: Type.Literal(true), message: Type.String() });

export const PasswordResetBody = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'the token of the mailed link' }),
  password: password('the new password'),
});

export const PasswordChangeBody = Type.Object({
  currentPassword: Type.String({ minLength: 1 }),
  newPassword: password('the new password'),
});

export const PasswordChangeResponse = Type.Object({ success: Type.Literal(true), token: Type.String({ description: 'a new token; every earlier one is revoked' }), user: PublicUser });
