import { describe, expect, it } from 'vitest'
import { fireEvent, screen, within } from '@testing-library/react'
import { renderApp } from '@/test/renderApp'
import { stubFetch, json } from '@/test/fetchStub'

describe('your data', () => {
  it('explains each part of the export and asks for the password before mailing the deletion link', async () => {
    let password = ''
    stubFetch({
      'GET /api/session': 204,
      'POST /api/me/deletion': (req) => {
        password = JSON.parse(req.body ?? '{}').password
        return password === 'Demo1234'
          ? json({ mailSent: true })
          : json({ validationErrors: { password: ['The password is not correct.'] } }, 400)
      },
    })
    renderApp('/your-data?lang=en')
    expect((await screen.findByRole('link', { name: 'Download my data (JSON)' }, { timeout: 20000 })).getAttribute('href')).toBe('/api/me/export')
    expect(screen.getByText('Saved payment cards: brand and last four digits only.')).toBeTruthy()
    const zone = screen.getByRole('region', { name: 'Delete your account' })
    expect(within(zone).getByText(/Payment records/)).toBeTruthy()

    fireEvent.click(within(zone).getByRole('button', { name: 'Send me the confirmation link' }))
    expect(await within(zone).findByText('Enter your password.')).toBeTruthy()
    expect(password).toBe('')

    fireEvent.change(within(zone).getByLabelText(/Current password/), { target: { value: 'Wrong1234' } })
    fireEvent.click(within(zone).getByRole('button', { name: 'Send me the confirmation link' }))
    expect(await within(zone).findAllByText('The password is not correct.')).not.toHaveLength(0)

    fireEvent.change(within(zone).getByLabelText(/Current password/), { target: { value: 'Demo1234' } })
    fireEvent.click(within(zone).getByRole('button', { name: 'Send me the confirmation link' }))
    expect(await within(zone).findByText(/We sent a confirmation link/)).toBeTruthy()
  }, 40000)

  it('refuses a dead confirmation link without offering the delete button', async () => {
    stubFetch({
      'GET /api/session': 204,
      'POST /api/me/deletion/validate': json({ message: 'gone' }, 404),
    })
    renderApp('/delete-account/abc?lang=en')
    expect(await screen.findByText(/This link is invalid or has expired/, undefined, { timeout: 20000 })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Delete my account permanently' })).toBeNull()
  }, 40000)
})
