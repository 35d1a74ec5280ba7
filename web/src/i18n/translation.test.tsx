import { describe, expect, it } from 'vitest'
import { Suspense } from 'react'
import { act, render, screen } from '@testing-library/react'
import { loadedResources, type Catalogue } from './catalogues'
import { createI18n, setLanguage } from './i18n'
import { TranslationProvider, fixedT, useLang, useTranslation } from './translation'
import { LANGUAGES } from './languages'

// The test setup loads every catalogue; an app starts with the shell's only.
const shellOnly = () => ({ en: { common: loadedResources().en.common } })

// Every t a Menu was given, to tell a re-render from a new function.
let ts = new Set<unknown>()

function Menu({ ns }: { ns?: string }) {
  const { t } = useTranslation(ns)
  const lang = useLang()
  ts.add(t)
  return (
    <p>
      {lang} {t('nav.menu')}
    </p>
  )
}

function show(i18n: ReturnType<typeof createI18n>, ns?: string) {
  ts = new Set()
  return render(
    <TranslationProvider i18n={i18n}>
      <Suspense fallback={<p>loading</p>}>
        <Menu ns={ns} />
      </Suspense>
    </TranslationProvider>,
  )
}

describe('useTranslation', () => {
  it('follows a language switch, with one t per language', async () => {
    const i18n = createI18n('en')
    const view = show(i18n)
    expect(screen.getByText(/Menu/).textContent).toBe('en Menu')
    // A re-render in the same language keeps the same t (forms build their resolvers from it).
    view.rerender(
      <TranslationProvider i18n={i18n}>
        <Suspense fallback={<p>loading</p>}>
          <Menu />
        </Suspense>
      </TranslationProvider>,
    )
    expect(screen.getByText(/Menu/).textContent).toBe('en Menu')
    expect(ts.size).toBe(1)
    await act(() => setLanguage(i18n, 'jp'))
    expect(screen.getByRole('paragraph').textContent).toBe('jp メニュー')
    expect(ts.size).toBe(2)
  })

  it('suspends until a namespace the page did not load is in', async () => {
    const i18n = createI18n('en', shellOnly())
    show(i18n, 'security')
    screen.getByText('loading')
    // The shell's keys through the page's namespace (fallbackNS), once its catalogue is in.
    expect((await screen.findByText(/Menu/)).textContent).toBe('en Menu')
    expect(i18n.hasResourceBundle('en', 'security')).toBe(true)
  })

  it('does not wait forever for a catalogue that cannot be loaded', async () => {
    const i18n = createI18n('en', shellOnly())
    show(i18n, 'nosuchnamespace')
    screen.getByText('loading')
    expect((await screen.findByText(/Menu/)).textContent).toBe('en Menu')
  })

  it('needs the provider', () => {
    expect(() => render(<Menu />)).toThrow(/TranslationProvider/)
  })
})

/** Every key of a catalogue, nested ones as a.b.c. */
function keysOf(cat: Catalogue, prefix = ''): string[] {
  return Object.entries(cat).flatMap(([k, v]) => (typeof v === 'string' ? [prefix + k] : keysOf(v, `${prefix}${k}.`)))
}

describe('fixedT', () => {
  it("answers every key of every catalogue as i18next's t does", () => {
    const all = loadedResources()
    let compared = 0
    for (const lang of LANGUAGES) {
      const i18n = createI18n(lang, all)
      for (const [ns, cat] of Object.entries(all[lang])) {
        const mine = fixedT(i18n, lang, ns)
        const theirs = i18n.getFixedT(lang, ns)
        for (const key of keysOf(cat)) {
          expect(mine(key), `${lang} ${ns} ${key}`).toBe(theirs(key))
          compared++
        }
      }
    }
    expect(compared).toBeGreaterThan(1000)
  })

  it('interpolates, falls back to the shell namespace and shows a missing key as i18next does', () => {
    const i18n = createI18n('en', loadedResources())
    const t = fixedT(i18n, 'en', 'security')
    expect(t('nav.menu')).toBe('Menu')
    expect(t('nav.homeOf', { name: 'Pink' })).toContain('Pink')
    expect(t('no.such.key')).toBe(i18n.getFixedT('en', 'security')('no.such.key'))
  })
})
