/**
 * The Markdown blocks of an output and the containers around them (CommonMark): list items and
 * block quotes hold blocks. Every block inside a quote starts with "> "; the first block of a
 * list item starts with its marker and the others, and a nested list, are indented to the item's
 * content column (the marker's width), so nesting survives. Items of one list follow each other
 * without a blank line (a tight list); blocks of one quote are joined by a quoted blank line, so
 * the quote stays one, also where a quote nested in it starts or ends (the line between carries
 * the containers both blocks are in). An ordered list's items are numbered from its `start`.
 * A list that follows another of its kind at the same place (two <ul>s in a row, or with what
 * was between them not chosen) takes the other bullet ("*" after "-") or delimiter (")" after
 * "."): CommonMark would continue the first list across the blank line, as one loose list.
 */
import type { Tree } from "../dom/tree.ts";
import type { PageSnapshot } from "../types.ts";

/** An open list item or block quote: the blocks inside it carry its prefix. */
interface Container {
  /** The list a list item belongs to, or the quote: its node index. */
  key: number;
  /** "> " for a quote; a list item's marker ("- ", "3. "). */
  marker: string;
  quote: boolean;
  /** A list item's marker was written (its later blocks are indented instead). */
  used: boolean;
  /** A list item's bullet ("-", "*") or ordered delimiter (".", ")"); "" for a quote. */
  delimiter: string;
}

/** Bullets (or ordered delimiters) a list takes, the second after a list whose items took the first. */
const BULLETS = ["-", "*"] as const;
const DELIMITERS = [".", ")"] as const;

/** Numbers ordered lists' items must not pass (a hostile `start`). */
const MAX_START = 1e9;

export class MarkdownBlocks {
  readonly blocks: string[] = [];
  private readonly containers: Container[] = [];
  /** Next number of each ordered list, by its node index. */
  private readonly counters = new Map<number, number>();
  /** Bullet or delimiter of each list, by its node index. */
  private readonly delimiters = new Map<number, string>();
  private lastInList = false;
  /** The containers the last block is in, outermost first. */
  private lastContainers: readonly Container[] = [];
  /** Key of the outermost container of the last block. */
  private lastOuter = -1;

  constructor(
    private readonly page: PageSnapshot,
    private readonly tree: Tree,
  ) {}

  /** A list item (node `item`) opens: its blocks get its marker. */
  openItem(item: number): void {
    const list = this.tree.parent[item] as number;
    const delimiter = this.listDelimiter(list);
    this.containers.push({
      key: list,
      marker: this.itemMarker(list, delimiter),
      quote: false,
      used: false,
      delimiter,
    });
  }

  /** A block quote (node `quote`) opens. */
  openQuote(quote: number): void {
    this.containers.push({ key: quote, marker: "> ", quote: true, used: false, delimiter: "" });
  }

  /** The innermost open item or quote closes. */
  close(): void {
    this.containers.pop();
  }

  /** Every container closes (the end of a chosen subtree). */
  closeAll(): void {
    this.containers.length = 0;
  }

  /** A block, its lines prefixed by the open quotes and list items. */
  write(text: string): void {
    let first = "";
    let rest = "";
    let newItem = false;
    let shared = ""; // the line prefix of the containers this block shares with the last one
    let sharedQuote = false;
    this.containers.forEach((c, k) => {
      const indent = c.quote ? c.marker : " ".repeat(c.marker.length);
      if (this.lastContainers[k] === c && shared.length === rest.length) {
        shared += indent;
        sharedQuote ||= c.quote;
      }
      first += c.quote || c.used ? indent : c.marker;
      rest += indent;
      if (!c.quote && !c.used) newItem = c.used = true;
    });
    const block = text
      .split("\n")
      .map((l, k) => ((k === 0 ? first : rest) + l).trimEnd())
      .join("\n");
    const outer = this.containers[0]?.key ?? -1;
    const last = this.blocks.length - 1;
    if (last >= 0 && newItem && this.lastInList && outer === this.lastOuter)
      this.blocks[last] += "\n" + block;
    else if (last >= 0 && sharedQuote) this.blocks[last] += `\n${shared.trimEnd()}\n${block}`;
    else this.blocks.push(block);
    this.lastInList = this.containers.some((c) => !c.quote);
    this.lastContainers = [...this.containers];
    this.lastOuter = outer;
  }

  /**
   * A list's bullet or delimiter, chosen at its first item: the other one of its kind when the
   * last block written was an item of another list of the same kind at the same place (inside
   * the same containers), which CommonMark would continue.
   */
  private listDelimiter(list: number): string {
    const known = this.delimiters.get(list);
    if (known !== undefined) return known;
    const [one, other] = this.page.nodes[list]?.tag === "ol" ? DELIMITERS : BULLETS;
    const before = this.lastContainers[this.containers.length];
    const sameContainers = this.containers.every((c, k) => this.lastContainers[k] === c);
    const follows =
      sameContainers &&
      before !== undefined &&
      before.key !== list &&
      (before.delimiter === one || before.delimiter === other);
    const delimiter = follows && before.delimiter === one ? other : one;
    this.delimiters.set(list, delimiter);
    return delimiter;
  }

  /**
   * A list item's marker: its bullet, or its number in an ordered list
   * (counted per list, from its `start`) and delimiter.
   */
  private itemMarker(list: number, delimiter: string): string {
    if (this.page.nodes[list]?.tag !== "ol") return `${delimiter} `;
    const start = Number.parseInt(this.page.nodes[list]?.attrs?.["start"] ?? "1", 10);
    const n =
      this.counters.get(list) ?? (Number.isFinite(start) && start >= 0 && start < MAX_START ? start : 1);
    this.counters.set(list, n + 1);
    return `${n}${delimiter} `;
  }
}
