import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import { PageSlot, ShellFirst } from './ShellFirst'

function Shell() {
  return (
    <div>
      <header>header</header>
      <main>
        <PageSlot>
          <p>page</p>
        </PageSlot>
      </main>
      <footer>footer</footer>
    </div>
  )
}

describe('ShellFirst', () => {
  it('renders the shell first and the page in a task after it', async () => {
    render(
      <ShellFirst>
        <Shell />
      </ShellFirst>,
    )
    expect(screen.getByText('header')).toBeTruthy()
    expect(screen.getByText('footer')).toBeTruthy()
    expect(screen.queryByText('page')).toBeNull()
    expect(await screen.findByText('page')).toBeTruthy()
    expect(screen.getByText('header')).toBeTruthy()
  })

  it('holds nothing back without it (tests, later renders)', () => {
    render(<Shell />)
    expect(screen.getByText('page')).toBeTruthy()
  })
})
