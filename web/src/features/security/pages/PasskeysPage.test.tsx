import { describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { renderApp } from '@/test/renderApp'
import { stubFetch, json, status, MEMBER_SESSION } from '@/test/fetchStub'

const key = (id: string, name: string, lastUsedAt: string | null) => ({ id, name, createdAt: '2026-11-20T06:00:00Z', lastUsedAt, synced: false })

describe('passkeys page', () => {
  it('lists, renames, and removes only after the current password', async () => {
    let keys = [key('k1', 'Work laptop', null), key('k2', 'Phone', '2026-11-21T06:00:00Z')]
    const calls: string[] = []
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/passkeys': () => json({ passkeys: keys }),
      'GET /api/security/events': { events: [] },
      'PUT /api/passkeys/k1': ({ body }) => {
        const { name } = JSON.parse(body ?? '{}') as { name: string }
        calls.push(`rename ${name}`)
        keys = keys.map((k) => (k.id === 'k1' ? { ...k, name } : k))
        return json(keys[0])
      },
      'POST /api/passkeys/k2/removal': ({ body }) => {
        const { currentPassword } = JSON.parse(body ?? '{}') as { currentPassword?: string }
        calls.push(`remove ${currentPassword ?? ''}`)
        if (currentPassword !== 'Demo1234') {
          return json({ validationErrors: { currentPassword: ['The password is not correct.'] } }, 400)
        }
        keys = keys.filter((k) => k.id !== 'k2')
        return status(204)
      },
    })
    renderApp('/security/passkeys?lang=en')
    const list = await screen.findByRole('region', { name: 'Your passkeys' }, { timeout: 20000 })
    const items = await within(list).findAllByRole('listitem')
    expect(items).toHaveLength(2)
    expect(within(items[0]).getByText('Not used yet')).toBeTruthy()

    fireEvent.click(within(items[0]).getByRole('button', { name: 'Rename Work laptop' }))
    fireEvent.change(within(items[0]).getByLabelText('New name'), { target: { value: 'Office laptop' } })
    fireEvent.click(within(items[0]).getByRole('button', { name: 'Save' }))
    await within(list).findByText('Office laptop')
    expect(await screen.findByText('Passkey renamed.')).toBeTruthy()
    // Opened again, the field starts from the passkey's name, not from what was typed last.
    fireEvent.click(within(items[0]).getByRole('button', { name: 'Rename Office laptop' }))
    fireEvent.change(within(items[0]).getByLabelText('New name'), { target: { value: 'Not saved' } })
    fireEvent.click(within(items[0]).getByRole('button', { name: 'Cancel' }))
    fireEvent.click(within(items[0]).getByRole('button', { name: 'Rename Office laptop' }))
    expect((within(items[0]).getByLabelText('New name') as HTMLInputElement).value).toBe('Office laptop')
    fireEvent.click(within(items[0]).getByRole('button', { name: 'Cancel' }))

    const phone = within(list).getAllByRole('listitem')[1]
    fireEvent.click(within(phone).getByRole('button', { name: 'Remove Phone' }))
    fireEvent.change(within(phone).getByLabelText('Current password'), { target: { value: 'Wrong' } })
    fireEvent.click(within(phone).getByRole('button', { name: 'Remove passkey' }))
    expect(await within(phone).findByText('The password is not correct.')).toBeTruthy()
    fireEvent.change(within(phone).getByLabelText('Current password'), { target: { value: 'Demo1234' } })
    fireEvent.click(within(phone).getByRole('button', { name: 'Remove passkey' }))
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1))
    expect(calls).toEqual(['rename Office laptop', 'remove Wrong', 'remove Demo1234'])
    expect(screen.getByText('Passkey “Phone” removed. We sent you an e-mail about it.')).toBeTruthy()
  }, 40000)
})
