import '../security.css'
import { useState } from 'react'
import { useTranslation } from '@/i18n/translation'
import { ApiError } from '@/api/errors'
import { useSession } from '@/app/session/SessionProvider'

/**
 * The login page's passkey button: a discoverable sign-in (no address
 * typed). Success continues exactly as a password login does. Its text is
 * the login page's (the shell's catalogue, login.passkey), so the first load
 * of /login needs no feature catalogue (docs/speed.md).
 */
export function PasskeySignIn() {
  const { t } = useTranslation()
  const session = useSession()
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const run = async () => {
    setFailure(null)
    setBusy(true)
    // the passkey code loads on the press, not with the login page (its budget)
    const passkeys = await import('../passkeysApi')
    try {
      await passkeys.signInWithPasskey()
      await session.onLoggedIn()
    } catch (e) {
      if (passkeys.isCancelled(e)) setFailure(t('login.passkey.cancelled'))
      else if (e instanceof ApiError && e.serverMessage && (e.status === 401 || e.status === 429 || e.status === 503)) setFailure(e.serverMessage)
      else setFailure(t('login.passkey.error'))
    } finally {
      setBusy(false)
    }
  }
  return (
    <section className="card passkey-signin" aria-labelledby="passkey-signin-title">
      <h2 id="passkey-signin-title">{t('login.passkey.title')}</h2>
      <p className="field__hint">{t('login.passkey.hint')}</p>
      {failure && (
        <p className="form__error" role="alert">
          {failure}
        </p>
      )}
      <button type="button" className="button button--secondary button--block" onClick={run} disabled={busy}>
        {busy ? t('login.passkey.signingIn') : t('login.passkey.signIn')}
      </button>
    </section>
  )
}
