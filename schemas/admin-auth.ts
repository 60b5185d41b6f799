// Administrator authentication (/api/auth), as fixed in decisions.md.
import { Type } from '@sinclair/typebox';

export const AdminUser = Type.Object({ id: Type.Integer(), username: Type.String() }, { $id: 'AdminUser' });
export const AdminLoginBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 100 }),
  password: Type.String({ minLength: 1, maxLength: 200 }),
});
export const AdminLoginResponse = Type.Object({ token: Type.String(), user: AdminUser });
export const AdminVerifyResponse = Type.Object({ valid: Type.Literal(true), user: AdminUser });
