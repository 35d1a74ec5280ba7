import { createElement, version } from 'react'
import { version as domVersion } from 'react-dom'
import { render, screen } from '@testing-library/react'

// The app runs on React 19 and React DOM: the tests run the same runtime as the build.
describe('runtime', () => {
  it('renders with React DOM 19', () => {
    expect(version).toMatch(/^19\./)
    expect(domVersion).toBe(version)
    render(createElement('p', null, 'rendered by React DOM'))
    const p = screen.getByText('rendered by React DOM')
    // React DOM keeps its fiber on the element (__reactFiber$…).
    expect(Object.keys(p).some((k) => k.startsWith('__reactFiber'))).toBe(true)
  })
})
