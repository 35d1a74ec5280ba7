/**
 * Passkeys: the member's list, add (registration ceremony), rename, remove
 * (after re-authentication) and the sign-in with a passkey. The browser
 * side of each ceremony is @simplewebauthn/browser, loaded only when a
 * ceremony starts (the login page stays small).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser'
import { api } from '@/api/client'
import { unwrap } from '@/api/errors'
import type { components } from '@/api/schema'
import { securityKeys } from './api'

export type Passkey = components['schemas']['Passkey']

const passkeysKey = securityKeys.key('passkeys')
const eventsKey = securityKeys.key('events')

type Json = Record<string, unknown>
const asJson = (v: unknown) => v as Json

const webauthn = () => import('@simplewebauthn/browser')

/** Whether this browser can run WebAuthn at all. */
export async function passkeysSupported(): Promise<boolean> {
  return (await webauthn()).browserSupportsWebAuthn()
}

/**
 * Whether an error means the member cancelled (or the browser's prompt
 * timed out): the page says so quietly instead of an error.
 */
export function isCancelled(e: unknown): boolean {
  const name = (e as { name?: string; cause?: { name?: string } } | null)?.name
  const cause = (e as { cause?: { name?: string } } | null)?.cause?.name
  return name === 'NotAllowedError' || name === 'AbortError' || cause === 'NotAllowedError' || cause === 'AbortError'
}

/** A fresh assertion for the options of path (sign-in or re-authentication). */
async function assertWith(path: '/api/passkeys/login/options' | '/api/passkeys/reauth/options') {
  const o = unwrap(await api.POST(path))
  const { startAuthentication } = await webauthn()
  const credential = await startAuthentication({ optionsJSON: o.publicKey as unknown as PublicKeyCredentialRequestOptionsJSON })
  return { challengeId: o.challengeId, credential: asJson(credential) }
}

/** Signs in with a passkey (discoverable: no address typed). */
export async function signInWithPasskey(): Promise<void> {
  const body = await assertWith('/api/passkeys/login/options')
  unwrap(await api.POST('/api/passkeys/login', { body }))
}

export function usePasskeys() {
  return useQuery({
    queryKey: passkeysKey,
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/passkeys', { signal })).passkeys,
  })
}

function useInvalidate() {
  const qc = useQueryClient()
  return () => Promise.all([qc.invalidateQueries({ queryKey: passkeysKey }), qc.invalidateQueries({ queryKey: eventsKey })])
}

/** Adds a passkey: the server's options, the browser's credential, the server's check. */
export function useAddPasskey() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: async (name: string) => {
      const o = unwrap(await api.POST('/api/passkeys/registration/options'))
      const { startRegistration } = await webauthn()
      const credential = await startRegistration({ optionsJSON: o.publicKey as unknown as PublicKeyCredentialCreationOptionsJSON })
      return unwrap(
        await api.POST('/api/passkeys/registration', {
          body: { challengeId: o.challengeId, name: name.trim() || undefined, credential: asJson(credential) },
        }),
      )
    },
    onSuccess: invalidate,
  })
}

export function useRenamePasskey() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: async ({ id, name }: { id: string; name: string }) =>
      unwrap(await api.PUT('/api/passkeys/{id}', { params: { path: { id } }, body: { name } })),
    onSuccess: invalidate,
  })
}

/** Removes a passkey with the current password, or else a fresh passkey assertion. */
export function useRemovePasskey() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: async ({ id, currentPassword }: { id: string; currentPassword?: string }) => {
      const body = currentPassword !== undefined ? { currentPassword } : { assertion: await assertWith('/api/passkeys/reauth/options') }
      unwrap(await api.POST('/api/passkeys/{id}/removal', { params: { path: { id } }, body }))
    },
    onSuccess: invalidate,
  })
}
