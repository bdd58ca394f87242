// Whether the page is used with a finger rather than a mouse: the primary pointer is
// coarse or cannot hover. Touch screens get no folder picker and no drag-and-drop
// wording. Decided once per page: a layout that changes under the user's finger (a
// browser's zoom or screenshot may briefly report another pointer) helps nobody.
export function isTouchScreen(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse), (hover: none)').matches;
}
