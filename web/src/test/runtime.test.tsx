import { Component as PreactComponent } from 'preact'
import { Component, createElement } from 'react'
import { createPortal } from 'react-dom'
import { createRoot } from 'react-dom/client'
import { render, screen } from '@testing-library/react'

// The app runs on Preact through preact/compat (vite.config.ts): the tests
// must run the same runtime as the build, never the real React.
describe('runtime', () => {
  it('resolves react, react-dom and Testing Library to Preact', () => {
    expect(Component).toBe(PreactComponent)
    expect(typeof createPortal).toBe('function')
    expect(typeof createRoot).toBe('function')
    render(createElement('p', null, 'rendered by Preact'))
    const p = screen.getByText('rendered by Preact')
    // Preact keeps its virtual node on the element; React DOM keeps __reactFiber$….
    expect(Object.keys(p).some((k) => k.startsWith('__reactFiber'))).toBe(false)
  })
})
