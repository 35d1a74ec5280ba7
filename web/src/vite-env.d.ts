/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/client" />

interface ImportMetaEnv {
  /** Build revision (git short hash); "dev" or unset in development. */
  readonly VITE_REVISION?: string
  /** Base URL of the booking site (member registration, terms, privacy). */
  readonly VITE_BOOKING_SITE_URL?: string
  /** Base URL of the airline's online shop (the account page's link). */
  readonly VITE_ONLINE_SHOP_URL?: string
}

interface ImportMeta {
  readonly env: ImportMetaEnv
}
