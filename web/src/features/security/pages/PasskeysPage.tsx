import '../security.css'
import { useEffect, useId, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from '@/i18n/translation'
import { AppLink } from '@/app/routing/AppLink'
import { ApiError, ValidationError } from '@/api/errors'
import { Field } from '@/components/Field'
import { PageHeader } from '@/components/PageHeader'
import { JapanTime } from '@/components/JapanTime'
import {
  isCancelled,
  passkeysSupported,
  useAddPasskey,
  usePasskeys,
  useRemovePasskey,
  useRenamePasskey,
  type Passkey,
} from '../passkeysApi'

const MAX_NAME = 60

/** The server's message of a failed call, else the page's general one. */
function useFailureText() {
  const { t } = useTranslation('security')
  return (e: unknown) => {
    if (isCancelled(e)) return t('passkeys.cancelled')
    if (e instanceof ValidationError) return Object.values(e.validationErrors).flat()[0] ?? t('passkeys.error')
    if (e instanceof ApiError && e.serverMessage) return e.serverMessage
    return t('passkeys.error')
  }
}

/** /security/passkeys: add, name, list and remove the member's passkeys. */
export default function PasskeysPage() {
  const { t } = useTranslation('security')
  const [supported, setSupported] = useState<boolean | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  useEffect(() => {
    let live = true
    passkeysSupported().then(
      (ok) => live && setSupported(ok),
      () => live && setSupported(false),
    )
    return () => {
      live = false
    }
  }, [])
  return (
    <div className="page passkeys-page">
      <PageHeader title={t('passkeys.title')} />
      <p className="security-centre__lead">{t('passkeys.lead')}</p>
      {notice && (
        <p className="form__success" role="status">
          {notice}
        </p>
      )}
      <AddPasskey supported={supported} onDone={setNotice} />
      <PasskeyList supported={supported} onDone={setNotice} />
      <p>
        <AppLink to="/security">{t('passkeys.back')}</AppLink>
      </p>
    </div>
  )
}

function AddPasskey({ supported, onDone }: { supported: boolean | null; onDone: (msg: string) => void }) {
  const { t } = useTranslation('security')
  const id = useId()
  const add = useAddPasskey()
  const failure = useFailureText()
  const { register, handleSubmit, reset } = useForm<{ name: string }>({ defaultValues: { name: '' } })
  const [error, setError] = useState<string | null>(null)
  // No rule of the page's own: the name is optional, and the server's answer (too long, say) shows under the form.
  const submit = handleSubmit(({ name }) => {
    onDone('')
    setError(null)
    add.mutate(name, {
      onSuccess: (p) => {
        reset()
        onDone(t('passkeys.added', { name: p.name }))
      },
      onError: (err) => setError(failure(err)),
    })
  })
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('passkeys.addTitle')}</h2>
      {supported === false ? (
        <p className="form__error" role="alert">
          {t('passkeys.unsupported')}
        </p>
      ) : (
        <form className="form passkey-add" onSubmit={submit} noValidate>
          <Field label={t('passkeys.nameLabel')} hint={t('passkeys.nameHint')} maxLength={MAX_NAME} autoComplete="off" registration={register('name')} />
          {error && (
            <p className="form__error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="button button--primary" disabled={add.isPending || supported === null}>
            {add.isPending ? t('passkeys.adding') : t('passkeys.add')}
          </button>
        </form>
      )}
    </section>
  )
}

function PasskeyList({ supported, onDone }: { supported: boolean | null; onDone: (msg: string) => void }) {
  const { t } = useTranslation('security')
  const list = usePasskeys()
  return (
    <section className="card" aria-labelledby="passkeys-list-title" aria-busy={list.isFetching}>
      <h2 id="passkeys-list-title">{t('passkeys.listTitle')}</h2>
      {list.isPending ? (
        <p role="status">{t('centre.loading')}</p>
      ) : list.isError ? (
        <p className="form__error" role="alert">
          {t('centre.loadError')}
        </p>
      ) : list.data.length === 0 ? (
        <p>{t('passkeys.none')}</p>
      ) : (
        <ul className="session-list">
          {list.data.map((p) => (
            <PasskeyItem key={p.id} passkey={p} canAssert={supported === true} onDone={onDone} />
          ))}
        </ul>
      )}
    </section>
  )
}

function PasskeyItem({ passkey: p, canAssert, onDone }: { passkey: Passkey; canAssert: boolean; onDone: (msg: string) => void }) {
  const { t } = useTranslation('security')
  const id = useId()
  const failure = useFailureText()
  const rename = useRenamePasskey()
  const remove = useRemovePasskey()
  const [mode, setMode] = useState<'view' | 'rename' | 'remove'>('view')
  const renameForm = useForm<{ name: string }>({ defaultValues: { name: p.name } })
  const removeForm = useForm<{ password: string }>({ defaultValues: { password: '' } })
  const [error, setError] = useState<string | null>(null)

  const open = (m: 'rename' | 'remove') => {
    onDone('') // the last change's notice goes with the next one
    setError(null)
    renameForm.reset({ name: p.name })
    removeForm.reset({ password: '' })
    setMode(m)
  }
  // No rules of the page's own: the server checks the name and the password, and its message shows under the form.
  const saveName = renameForm.handleSubmit(({ name }) => {
    setError(null)
    rename.mutate(
      { id: p.id, name },
      {
        onSuccess: () => {
          setMode('view')
          onDone(t('passkeys.renamed'))
        },
        onError: (err) => setError(failure(err)),
      },
    )
  })
  const removeWith = (currentPassword?: string) => {
    setError(null)
    remove.mutate(
      { id: p.id, currentPassword },
      {
        onSuccess: () => onDone(t('passkeys.removed', { name: p.name })),
        onError: (err) => setError(failure(err)),
      },
    )
  }

  return (
    <li className="session passkey">
      <div className="session__main">
        <strong>{p.name}</strong>
        {p.synced && <span className="session__badge">{t('passkeys.synced')}</span>}
      </div>
      <dl className="session__facts">
        <dt>{t('passkeys.created')}</dt>
        <dd><JapanTime value={p.createdAt} /></dd>
        <dt>{t('passkeys.lastUsed')}</dt>
        <dd>{p.lastUsedAt ? <JapanTime value={p.lastUsedAt} /> : t('passkeys.neverUsed')}</dd>
      </dl>
      {mode === 'view' && (
        <div className="passkey__actions">
          <button type="button" className="button" onClick={() => open('rename')} aria-label={t('passkeys.renameLabel', { name: p.name })}>
            {t('passkeys.rename')}
          </button>
          <button type="button" className="button" onClick={() => open('remove')} aria-label={t('passkeys.removeLabel', { name: p.name })}>
            {t('passkeys.remove')}
          </button>
        </div>
      )}
      {mode === 'rename' && (
        <form className="form passkey__panel" onSubmit={saveName} noValidate>
          {/* aria-required without Field's `required`: the label stays as it was, without the asterisk */}
          <Field label={t('passkeys.newName')} maxLength={MAX_NAME} aria-required autoComplete="off" registration={renameForm.register('name')} />
          {error && (
            <p className="form__error" role="alert">
              {error}
            </p>
          )}
          <div className="actions">
            <button type="submit" className="button button--primary" disabled={rename.isPending}>
              {t('passkeys.save')}
            </button>
            <button type="button" className="button" onClick={() => setMode('view')}>
              {t('passkeys.cancel')}
            </button>
          </div>
        </form>
      )}
      {mode === 'remove' && (
        <form
          className="form passkey__panel"
          aria-labelledby={`${id}-remove-title`}
          onSubmit={removeForm.handleSubmit(({ password }) => removeWith(password))}
          noValidate
        >
          <h3 id={`${id}-remove-title`}>{t('passkeys.removeTitle')}</h3>
          <p>{t('passkeys.removeBody', { name: p.name })}</p>
          <Field label={t('passkeys.password')} type="password" autoComplete="current-password" registration={removeForm.register('password')} />
          {error && (
            <p className="form__error" role="alert">
              {error}
            </p>
          )}
          <div className="actions">
            <button type="submit" className="button button--danger" disabled={remove.isPending}>
              {t('passkeys.removeWithPassword')}
            </button>
            {canAssert && (
              <button type="button" className="button" disabled={remove.isPending} onClick={() => removeWith(undefined)}>
                {t('passkeys.removeWithPasskey')}
              </button>
            )}
            <button type="button" className="button" onClick={() => setMode('view')}>
              {t('passkeys.cancel')}
            </button>
          </div>
        </form>
      )}
    </li>
  )
}
