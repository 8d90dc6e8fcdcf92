import { z } from 'zod'

const newPasswordFields = {
  newPassword: z.string().min(6, 'Password must be at least 6 characters'),
  confirmPassword: z.string().min(1, 'Please confirm your new password'),
}

// An empty confirmation already has its own message; only compare a given one.
const confirmationMatches = {
  check: (values: { newPassword: string; confirmPassword: string }) =>
    values.confirmPassword === '' || values.newPassword === values.confirmPassword,
  params: { message: "Passwords don't match", path: ['confirmPassword'] },
}

export const changePasswordSchema = z
  .object({ currentPassword: z.string().min(1, 'Current password is required'), ...newPasswordFields })
  .refine(confirmationMatches.check, confirmationMatches.params)

/** An account without a password (Google, trial) sets its first one: no current password to give. */
export const firstPasswordSchema = z
  .object({ currentPassword: z.string(), ...newPasswordFields })
  .refine(confirmationMatches.check, confirmationMatches.params)

export type ChangePasswordInput = z.infer<typeof changePasswordSchema>

/** The account name: trimmed by the server, at most 100 characters each. */
export const nameSchema = z.object({
  firstName: z.string().max(100, 'First name must be at most 100 characters'),
  lastName: z.string().max(100, 'Last name must be at most 100 characters'),
})
