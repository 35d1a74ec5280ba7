// Flat ESLint config. Besides the usual TypeScript and React-hooks rules it
// keeps features apart: a file in src/features/<a>/ may not import from
// src/features/<b>/ (shared code belongs in src/components, src/api, src/i18n
// or the shell's hooks in src/app).
import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

// Every folder of src/features is a feature.
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)

const featureBoundaries = features.map((feature) => {
  const others = features.filter((f) => f !== feature)
  return {
    files: [`src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // The payment feature's index (PaymentPanel) is the one public entry other features may import.
              group: others.flatMap((o) =>
                o === 'payment'
                  ? [`@/features/${o}/**`, `**/features/${o}/**`, `../${o}/**`, `../../${o}/**`, `../../../${o}/**`]
                  : [`@/features/${o}`, `@/features/${o}/**`, `**/features/${o}`, `**/features/${o}/**`, `../${o}`, `../${o}/**`, `../../${o}`, `../../${o}/**`, `../../../${o}/**`]),
              message: `Features must not import each other (${feature} → another feature). Move shared code to src/components, src/api or src/i18n.`,
            },
            {
              group: ['@/app/routes', '@/app/AppRoutes', '@/app/main'],
              message: 'Features must not import the route table; the shell imports features.',
            },
          ],
        },
      ],
    },
  }
})

export default tseslint.config(
  { ignores: ['node_modules', 'dist', '../internal/webapp/dist', 'src/api/schema.d.ts', 'test-results'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2023, globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The service worker's hand-written part (the push and click handlers).
    files: ['public/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 2023, sourceType: 'script', globals: globals.serviceworker },
  },
  {
    files: ['*.js', 'e2e/**/*.{js,mjs}'],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: globals.node },
  },
  ...featureBoundaries,
)
