import { describe, expect, it } from 'vitest'
import { zodMessages as messages } from '@/test/zod-messages'
import { loginInputSchema } from './login'
import { registerInputSchema, registerPayload } from './register'

describe('login schema', () => {
  it('requires username and password, word for word', () => {
    expect(messages(loginInputSchema.safeParse({ username: '', password: '' }))).toEqual({
      username: 'Username is required',
      password: 'Password is required',
    })
  })

  it('accepts any non-empty username', () => {
    expect(loginInputSchema.safeParse({ username: 'bob', password: 'x' }).success).toBe(true)
  })
})

describe('register schema', () => {
  it('rejects a bad e-mail and a short password, word for word', () => {
    expect(messages(registerInputSchema.safeParse({ email: 'not-an-email', password: '12345' }))).toEqual({
      email: 'Invalid email address',
      password: 'Password must be at least 6 characters',
    })
  })

  it('rejects an empty e-mail with the same message', () => {
    expect(messages(registerInputSchema.safeParse({ email: '', password: '123456' }))).toEqual({
      email: 'Invalid email address',
    })
  })

  it('accepts a valid e-mail and a 6-character password', () => {
    expect(registerInputSchema.safeParse({ email: 'a@example.com', password: '123456' }).success).toBe(true)
  })

  it('builds the payload with the e-mail as username and the password confirmed', () => {
    expect(registerPayload({ email: 'a@example.com', password: 'secret1' })).toEqual({
      username: 'a@example.com',
      firstName: '',
      lastName: '',
      email: 'a@example.com',
      password: 'secret1',
      confirmPassword: 'secret1',
    })
  })
})
