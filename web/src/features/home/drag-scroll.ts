/** docs/strings.md#constants-and-limits: the forecast row's arrow buttons scroll 80 px; a mouse drag moves it 1.2× the pointer. */
export const ARROW_SCROLL_PX = 80;
export const DRAG_SPEED = 1.2;

/** Where a drag that started at `startScroll` puts the row when the pointer moved `dx`. */
export const dragScrollLeft = (startScroll: number, dx: number) => startScroll - dx * DRAG_SPEED;
