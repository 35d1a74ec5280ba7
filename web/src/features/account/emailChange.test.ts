import { describe, expect, it } from 'vitest'
import { profileSchema } from './schemas'
import { isEmailChange } from './rules'

const t = (key: string) => key
const profile = {
  lastname: 'Yamada', firstname: 'Hanako', gender: 'female', birth: '1988-04-12', tel: '0312345678',
  email: 'demo@example.com', addressCountryCode: 'JP', addressPostalCode: '5490001', addressStateAndCity: 'Osaka',
  address1: '', passportNo: '', passportNationalityCode: '', passportIssueCountryCode: '', passportExpirationDate: '',
  optin1: false, autoLoginNoticeMail: true, currentPassword: '',
}

describe('the e-mail change in the profile form', () => {
  const schema = profileSchema(t, () => new Date('2026-11-20T06:00:00Z'), 'demo@example.com')
  it('needs no password while the address stays (letter case aside)', () => {
    expect(schema.safeParse(profile).success).toBe(true)
    expect(schema.safeParse({ ...profile, email: 'Demo@Example.com' }).success).toBe(true)
  })
  it('needs the current password for a new address', () => {
    const r = schema.safeParse({ ...profile, email: 'new@example.com' })
    expect(r.success).toBe(false)
    expect(r.error?.issues[0]).toMatchObject({ path: ['currentPassword'], message: 'emailChange.passwordRequired' })
    expect(schema.safeParse({ ...profile, email: 'new@example.com', currentPassword: 'Demo1234' }).success).toBe(true)
  })
  it('compares like the server', () => {
    expect(isEmailChange('a@example.com', ' A@example.com ')).toBe(false)
    expect(isEmailChange('a@example.com', 'b@example.com')).toBe(true)
    expect(isEmailChange(undefined, 'b@example.com')).toBe(false)
  })
})
