import { describe, expect, it } from 'vitest'
import { fireEvent, render, screen } from '@testing-library/react'
import { ActionMenu } from './ActionMenu'

function renderMenu() {
  render(
    <ActionMenu label="More">
      <button type="button" role="menuitem" className="menu__item">Itinerary</button>
      <button type="button" role="menuitem" className="menu__item">Receipt</button>
      <a href="/x" role="menuitem" className="menu__item">Calendar</a>
    </ActionMenu>,
  )
  return screen.getByRole('button', { name: 'More' })
}

const focused = () => (document.activeElement as HTMLElement | null)?.textContent

describe('ActionMenu', () => {
  it('moves the focus into the menu and answers the arrow keys, Home and End', () => {
    const button = renderMenu()
    fireEvent.click(button)
    expect(button.getAttribute('aria-expanded')).toBe('true')
    expect(focused()).toBe('Itinerary')
    const menu = screen.getByRole('menu')
    fireEvent.keyDown(menu, { key: 'ArrowDown' })
    expect(focused()).toBe('Receipt')
    fireEvent.keyDown(menu, { key: 'ArrowDown' })
    fireEvent.keyDown(menu, { key: 'ArrowDown' })
    expect(focused()).toBe('Itinerary') // wraps
    fireEvent.keyDown(menu, { key: 'ArrowUp' })
    expect(focused()).toBe('Calendar') // wraps back
    fireEvent.keyDown(menu, { key: 'Home' })
    expect(focused()).toBe('Itinerary')
    fireEvent.keyDown(menu, { key: 'End' })
    expect(focused()).toBe('Calendar')
    fireEvent.keyDown(document, { key: 'Escape' })
    expect(button.getAttribute('aria-expanded')).toBe('false')
    expect(document.activeElement).toBe(button)
  })

  it('opens from the keyboard on the button: ArrowDown to the first item, ArrowUp to the last', () => {
    const button = renderMenu()
    button.focus()
    fireEvent.keyDown(button, { key: 'ArrowDown' })
    expect(button.getAttribute('aria-expanded')).toBe('true')
    expect(focused()).toBe('Itinerary')
    fireEvent.keyDown(document, { key: 'Escape' })
    fireEvent.keyDown(button, { key: 'ArrowUp' })
    expect(focused()).toBe('Calendar')
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Tab' })
    expect(button.getAttribute('aria-expanded')).toBe('false')
  })
})
