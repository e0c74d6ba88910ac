import { type ReactNode, useState } from 'react';

/**
 * A list that draws only the rows in view (plus a few): thousands of tasks or messages cost
 * what a screenful does. Rows have one height, so where each one sits is known without
 * drawing it. With `follow`, it keeps to the end while the reader has not scrolled up.
 */
export function VirtualList<T>(props: {
  items: readonly T[];
  rowHeight: number;
  height: number;
  render: (item: T, index: number) => ReactNode;
  className?: string;
  follow?: boolean;
  label: string;
}) {
  const { items, rowHeight, height, render } = props;
  const [top, setTop] = useState(0);
  const [pinned, setPinned] = useState(true);
  const total = items.length * rowHeight;
  const scrollTop = props.follow && pinned ? Math.max(0, total - height) : top;
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - 5);
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / rowHeight) + 5);
  const rows: ReactNode[] = [];
  for (let index = first; index < last; index++) {
    rows.push(
      <div key={index} className="row" style={{ top: index * rowHeight, height: rowHeight }}>
        {render(items[index] as T, index)}
      </div>,
    );
  }
  return (
    <section
      className={`virtual ${props.className ?? ''}`}
      style={{ height }}
      aria-label={props.label}
      data-count={items.length}
      ref={(element) => {
        if (element && props.follow && pinned && element.scrollTop !== scrollTop)
          element.scrollTop = scrollTop;
      }}
      onScroll={(event) => {
        const element = event.currentTarget;
        setTop(element.scrollTop);
        setPinned(element.scrollTop + height >= total - rowHeight);
      }}
    >
      <div style={{ height: total, position: 'relative' }}>{rows}</div>
    </section>
  );
}
