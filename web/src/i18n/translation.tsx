import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'
import type { i18n as I18n, TFunction } from 'i18next'
import { SHELL_NAMESPACE } from './catalogues'
import { DEFAULT_LANG, isLang, type Lang } from './languages'

/**
 * The app's translation hook and its provider, in place of react-i18next
 * (docs/speed.md). react-i18next's hook subscribes every
 * component to i18next's events and, on every render, rebuilds its options,
 * checks each namespace's load state two or three times (useSyncExternalStore)
 * and copies the i18next instance into a wrapper on first use: about a
 * tenth of a page's render time on a phone, in ~80 components. Here one
 * provider follows the language and passes it down by context; a
 * component's `t` is i18next's own fixed-language function, kept across
 * renders until the language changes (so what is built from it, a form's
 * resolver, is built once).
 *
 * A namespace the page's route did not load (routes.tsx) is loaded here:
 * the component suspends until it is in, as with react-i18next.
 */
interface TranslationState {
  i18n: I18n
  lang: Lang
}

const TranslationContext = createContext<TranslationState | null>(null)

/** Provides the i18next instance and re-renders the app when its language changes. */
export function TranslationProvider({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  const [lang, setLang] = useState(() => langOf(i18n))
  useEffect(() => {
    const follow = () => setLang(langOf(i18n))
    follow()
    i18n.on('languageChanged', follow)
    return () => i18n.off('languageChanged', follow)
  }, [i18n])
  const value = useMemo(() => ({ i18n, lang }), [i18n, lang])
  return <TranslationContext.Provider value={value}>{children}</TranslationContext.Provider>
}

function langOf(i18n: I18n): Lang {
  return isLang(i18n.language) ? i18n.language : DEFAULT_LANG
}

function useTranslationState(): TranslationState {
  const state = useContext(TranslationContext)
  if (!state) throw new Error('useTranslation needs a TranslationProvider above it')
  return state
}

// Namespace loads in flight or done, per instance, so that a component
// suspends on one promise and a catalogue that failed to load (i18next then
// counts it as loaded, with no keys) does not suspend it again.
const loads = new WeakMap<I18n, Map<string, Promise<void> | 'settled'>>()

function suspendUntilLoaded(i18n: I18n, lang: Lang, ns: string): void {
  if (i18n.hasResourceBundle(lang, ns)) return
  let byKey = loads.get(i18n)
  if (!byKey) loads.set(i18n, (byKey = new Map()))
  const key = `${lang}|${ns}`
  const state = byKey.get(key)
  if (state === 'settled') return
  if (state) throw state
  const load = i18n.loadNamespaces(ns).then(() => {
    byKey.set(key, 'settled')
  })
  byKey.set(key, load)
  throw load
}

/**
 * What the app's schemas and rules take for text: a key and, maybe, its
 * values. i18next's `TFunction` type is no longer one (since i18next 27 its
 * options may not be `undefined`), though its function takes that call.
 */
export type Translate = (key: string, opts?: Record<string, unknown>) => string

/** i18next's `t`, which is also a `Translate`. */
export type AppTFunction = TFunction & Translate

/** `t` for a namespace (the shell's by default) in the page's language, and the i18next instance. */
export function useTranslation(ns: string = SHELL_NAMESPACE): { t: AppTFunction; i18n: I18n } {
  const { i18n, lang } = useTranslationState()
  suspendUntilLoaded(i18n, lang, ns)
  return useMemo(() => ({ t: fixedT(i18n, lang, ns), i18n }), [i18n, lang, ns])
}

/**
 * i18next's `t` for one language and namespace, with a short way for most
 * calls: a key asked for without options whose catalogue entry is plain text
 * (nothing to interpolate or nest) is returned as stored, which is what
 * i18next returns for it. i18next's own way (splitting and resolving the key,
 * interpolating, post-processing) for every label was about a fifth of a
 * page's render time on a phone. Anything else (options, a key found only
 * through fallbackNS, a missing key) goes to i18next.
 */
export function fixedT(i18n: I18n, lang: Lang, ns: string): AppTFunction {
  const full = i18n.getFixedT(lang, ns)
  const t = (...args: Parameters<typeof full>) => {
    const [key] = args
    if (args.length === 1 && typeof key === 'string') {
      const text: unknown = i18n.getResource(lang, ns, key)
      if (typeof text === 'string' && !text.includes('{{') && !text.includes('$t(')) return text
    }
    return full(...args)
  }
  return t as AppTFunction
}

/** The page's language code (jp en sg kr cn tw hk th). */
export function useLang(): Lang {
  return useTranslationState().lang
}
