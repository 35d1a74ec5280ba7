// A Vite plugin that writes the web app manifest once per language
// (manifest-<lang>.webmanifest): the name and short name in the member's
// language, the brand's colours and icons (scripts/icons.mjs), standalone,
// start URL "/". The page points its <link rel="manifest"> at its
// language's file (src/i18n/i18n.ts, syncDocumentLang), so a phone installs
// the app under the name the member reads.
import type { Plugin } from 'vite'
import { readFileSync } from 'node:fs'
import { BCP47, LANGUAGES, type Lang } from '../src/i18n/languages.ts'

const brand = JSON.parse(readFileSync(new URL('../../internal/brand/brand.json', import.meta.url), 'utf8')) as {
  product: Record<string, string>
  colors: { accent: string }
}

/** The name under the home-screen icon (about 12 characters show), in each language. */
export const SHORT_NAMES: Record<Lang, string> = {
  jp: 'Peachメンバーズ',
  en: 'Peach Members',
  sg: 'Peach Members',
  kr: 'Peach 멤버스',
  cn: 'Peach 会员',
  tw: 'Peach 會員',
  hk: 'Peach 會員',
  th: 'Peach สมาชิก',
}

export function manifestFor(lang: Lang) {
  return {
    id: '/',
    lang: BCP47[lang],
    dir: 'ltr',
    name: brand.product[lang],
    short_name: SHORT_NAMES[lang],
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: brand.colors.accent,
    background_color: '#ffffff',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  }
}

export function manifests(): Plugin {
  return {
    name: 'members-manifests',
    apply: 'build',
    generateBundle() {
      for (const lang of LANGUAGES) {
        this.emitFile({ type: 'asset', fileName: `manifest-${lang}.webmanifest`, source: JSON.stringify(manifestFor(lang), null, 2) + '\n' })
      }
    },
  }
}
