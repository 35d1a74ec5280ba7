import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import { Later } from './Later'

describe('Later', () => {
  it('renders its children after the page around them, in a task of their own', async () => {
    const { container } = render(
      <div>
        <p>at once</p>
        <Later>
          <p>below the fold</p>
        </Later>
      </div>,
    )
    expect(screen.getByText('at once')).toBeTruthy()
    expect(screen.queryByText('below the fold')).toBeNull()
    expect(container.querySelectorAll('p')).toHaveLength(1)
    expect(await screen.findByText('below the fold')).toBeTruthy()
  })

  it('holds the given room until then', async () => {
    const { container } = render(
      <Later minHeight="400px">
        <p>later</p>
      </Later>,
    )
    const room = container.firstElementChild as HTMLElement
    expect(room.style.minHeight).toBe('400px')
    expect(room.getAttribute('aria-hidden')).toBe('true')
    await screen.findByText('later')
    expect(container.querySelector('[aria-hidden]')).toBeNull()
  })
})
