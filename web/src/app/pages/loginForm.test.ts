import { describe, expect, it } from 'vitest'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod/mini'
import type { ResolverOptions } from 'react-hook-form'
import { LOGIN_MAX, loginResolver, type LoginForm } from './loginForm'

const t = (key: string, opts?: Record<string, unknown>) => (opts ? `${key} ${JSON.stringify(opts)}` : key)

// The zod/mini schema the login form used before (it kept zod's core on the first load).
const zodSchema = z.object({
  email: z.string().check(z.trim(), z.minLength(1, t('validation.required')), z.maxLength(LOGIN_MAX, t('validation.maxLength', { max: LOGIN_MAX }))),
  password: z.string().check(z.minLength(1, t('validation.required')), z.maxLength(LOGIN_MAX, t('validation.maxLength', { max: LOGIN_MAX }))),
})

const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<LoginForm>
const long = 'x'.repeat(LOGIN_MAX + 1)
const cases: LoginForm[] = [
  { email: '', password: '' },
  { email: '   ', password: 'pw' },
  { email: '  a@b.c  ', password: '' },
  { email: ' a@b.c ', password: ' pw ' },
  { email: long, password: long },
  { email: ` ${'y'.repeat(LOGIN_MAX)} `, password: 'x'.repeat(LOGIN_MAX) },
  { email: 'a@b.c', password: long },
]

describe('login form rules', () => {
  for (const values of cases) {
    it(`answer ${JSON.stringify(values).slice(0, 60)} as the zod schema did`, async () => {
      const before = await zodResolver(zodSchema)(values, undefined, options)
      const after = await loginResolver(t)(values, undefined, options)
      expect(after).toEqual(before)
    })
  }

  it('names the rule broken', async () => {
    const r = await loginResolver(t)({ email: ' ', password: long }, undefined, options)
    expect(r.errors.email?.message).toBe('validation.required')
    expect(r.errors.password?.message).toBe(`validation.maxLength {"max":${LOGIN_MAX}}`)
  })
})
