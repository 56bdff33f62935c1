/**
 * The Inspect frame from the outside. The frame is sandboxed without scripts but same-origin, so
 * the studio (not the page) reads its document: it finds the block under the pointer, marks
 * labels with an attribute the frame's styles tint, and turns clicks into label changes.
 */

/** Attribute names set on the frame's elements (routes.ts FRAME_STYLE styles them). */
export const BLOCK = "data-pith-b";
const LABEL = "data-pith-l";
const HOVER = "data-pith-h";

export interface FrameHandlers {
  /** The block under the pointer (null when none), with its box in the frame's viewport. */
  hover(node: number | null, box: DOMRect | null): void;
  /** A click on a block; `region`: the shift key was down (label the block's whole parent). */
  click(node: number, region: number[] | null): void;
}

/** The block around an event's target (an element of the frame's realm: `instanceof Element` is false there). */
function blockOf(target: EventTarget | null): Element | null {
  const el = target as Element | null;
  return typeof el?.closest === "function" ? el.closest(`[${BLOCK}]`) : null;
}

/** Blocks inside an element (itself included), in document order. */
export function blocksIn(el: Element): number[] {
  const inside = Array.from(el.querySelectorAll(`[${BLOCK}]`));
  if (el.hasAttribute(BLOCK)) inside.unshift(el);
  return inside.map((e) => Number(e.getAttribute(BLOCK)));
}

/** Listens to the frame's document; returns the function that stops listening. */
export function attachFrame(doc: Document, handlers: FrameHandlers): () => void {
  let hovered: Element | null = null;
  const over = (e: Event): void => {
    const el = blockOf(e.target);
    if (el === hovered) return;
    hovered?.removeAttribute(HOVER);
    hovered = el;
    el?.setAttribute(HOVER, "");
    handlers.hover(el ? Number(el.getAttribute(BLOCK)) : null, el ? el.getBoundingClientRect() : null);
  };
  const click = (e: MouseEvent): void => {
    e.preventDefault();
    e.stopPropagation();
    const el = blockOf(e.target);
    if (!el) return;
    const region = e.shiftKey && el.parentElement ? blocksIn(el.parentElement) : null;
    handlers.click(Number(el.getAttribute(BLOCK)), region);
  };
  doc.addEventListener("mouseover", over, true);
  doc.addEventListener("click", click, true);
  return () => {
    doc.removeEventListener("mouseover", over, true);
    doc.removeEventListener("click", click, true);
  };
}

/** Shows labels in the frame: main, noise, or none (labels hidden). */
export function paintLabels(doc: Document, main: ReadonlySet<number> | null): void {
  for (const el of Array.from(doc.querySelectorAll(`[${BLOCK}]`))) {
    if (main === null) el.removeAttribute(LABEL);
    else el.setAttribute(LABEL, main.has(Number(el.getAttribute(BLOCK))) ? "m" : "n");
  }
}
