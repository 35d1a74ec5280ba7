import { describe, expect, it } from 'vitest'
import { revisionAction, revisionsDiffer } from './revision'
import { apiError, SessionTimedOutError, ValidationError } from './errors'

describe('revision mismatch', () => {
  it('ignores dev builds and equal revisions', () => {
    expect(revisionsDiffer('dev', 'abc')).toBe(false)
    expect(revisionsDiffer('abc', 'dev')).toBe(false)
    expect(revisionsDiffer('abc', null)).toBe(false)
    expect(revisionsDiffer('abc', 'abc')).toBe(false)
    expect(revisionsDiffer('abc', 'def')).toBe(true)
  })
  it('reloads once with rev, then shows the modal', () => {
    expect(revisionAction('http://x/account?lang=jp', 'def')).toEqual({ kind: 'reload', url: '/account?lang=jp&rev=def' })
    expect(revisionAction('http://x/account?lang=jp&rev=def', 'def')).toEqual({ kind: 'modal' })
  })
})

describe('apiError', () => {
  it('turns 400 validationErrors into a ValidationError', () => {
    const e = apiError(400, { validationErrors: { email: ['Required'] } })
    expect(e).toBeInstanceOf(ValidationError)
    expect((e as ValidationError).validationErrors).toEqual({ email: ['Required'] })
  })
  it('keeps the server message and errorKey', () => {
    const e = apiError(401, { message: 'Wrong e-mail or password' })
    expect(e.serverMessage).toBe('Wrong e-mail or password')
    expect(apiError(500, { errorKey: 'voucher_reissue_error' }).errorKey).toBe('voucher_reissue_error')
    expect(apiError(403, {})).toBeInstanceOf(SessionTimedOutError)
  })
})
