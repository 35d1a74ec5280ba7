import { describe, expect, it } from 'vitest'
import type { Rolldown } from 'vite'
import { firstLoadChunks } from './compileHints.ts'

type Chunk = { fileName: string; isEntry?: boolean; isDynamicEntry?: boolean; facadeModuleId?: string; imports?: string[]; dynamicImports?: string[] }

function bundle(...chunks: Chunk[]): Rolldown.OutputBundle {
  return Object.fromEntries(
    chunks.map((c) => [c.fileName, { type: 'chunk', isEntry: false, isDynamicEntry: false, facadeModuleId: null, imports: [], dynamicImports: [], code: '', ...c }]),
  ) as unknown as Rolldown.OutputBundle
}

const isPage = /\/pages\/[A-Za-z]+Page\.tsx$/

describe('firstLoadChunks', () => {
  it('takes the entry, the pages and what they import statically, not catalogues nor what is imported later', () => {
    const b = bundle(
      { fileName: 'assets/index.js', isEntry: true, imports: ['assets/shell.js'] },
      { fileName: 'assets/shell.js', imports: ['assets/rolldown-runtime.js'], dynamicImports: ['assets/locale-en-common.js', 'assets/AccountPage.js'] },
      { fileName: 'assets/rolldown-runtime.js' },
      { fileName: 'assets/locale-en-common.js', isDynamicEntry: true, imports: ['assets/rolldown-runtime.js'] },
      { fileName: 'assets/AccountPage.js', isDynamicEntry: true, facadeModuleId: '/w/src/features/account/pages/AccountPage.tsx', imports: ['assets/forms.js', 'assets/shell.js'], dynamicImports: ['assets/schemas.js'] },
      { fileName: 'assets/forms.js' },
      // imported with import() on the first submit
      { fileName: 'assets/schemas.js', isDynamicEntry: true, facadeModuleId: '/w/src/features/account/schemas.ts', imports: ['assets/zod.js'] },
      { fileName: 'assets/zod.js' },
    )
    expect(firstLoadChunks(b, isPage)).toEqual(['assets/AccountPage.js', 'assets/forms.js', 'assets/index.js', 'assets/rolldown-runtime.js', 'assets/shell.js'])
  })
})
