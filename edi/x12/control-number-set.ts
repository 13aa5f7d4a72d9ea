// The control numbers seen so far in a group (ST02) or an interchange (GS06),
// to note a repeat (D216) at little cost per set: partners number their sets
// upwards, so digits are kept in a sorted typed array while they rise (an
// append, a binary search when one does not), without hashing a string per
// set; anything else goes to a small Set. A Set of strings cost 200 ms more
// on 200,000 sets in one group (a 16 MB file); this costs about 15 (D216).

/** How many numbers are remembered; repeats past this many are not looked for (8 bytes each: 8 MB at most). */
export const MAX_REMEMBERED_CONTROL_NUMBERS = 1_000_000;

export class ControlNumberSet {
  private rising = new Float64Array(256);
  private risingLength = 0;
  private otherNumbers = new Set<number>();
  private otherText = new Set<string>();

  /**
   * `byNumber`: N0 elements (GS06), "0007" and "7" are the same number; else
   * AN (ST02), compared as written: the length is part of the key.
   */
  constructor(private readonly byNumber: boolean) {}

  clear() {
    this.risingLength = 0;
    this.otherNumbers.clear();
    this.otherText.clear();
  }

  private get size() {
    return this.risingLength + this.otherNumbers.size + this.otherText.size;
  }

  /** Remembers `value`; true when it was seen before. */
  repeat(value: string): boolean {
    const key = this.numberKey(value);
    if (key === null) {
      if (this.otherText.has(value)) return true;
      if (this.size < MAX_REMEMBERED_CONTROL_NUMBERS) this.otherText.add(value);
      return false;
    }
    const length = this.risingLength;
    if (length === 0 || key > this.rising[length - 1]) {
      if (this.size >= MAX_REMEMBERED_CONTROL_NUMBERS) return false;
      if (length === this.rising.length) {
        const grown = new Float64Array(length * 2);
        grown.set(this.rising);
        this.rising = grown;
      }
      this.rising[this.risingLength++] = key;
      return false;
    }
    if (this.inRising(key) || this.otherNumbers.has(key)) return true;
    if (this.size < MAX_REMEMBERED_CONTROL_NUMBERS) this.otherNumbers.add(key);
    return false;
  }

  /** Digits only, at most 9: the number (times 10 plus the length for AN); null otherwise. */
  private numberKey(value: string): number | null {
    const length = value.length;
    if (length === 0 || length > 9) return null;
    let n = 0;
    for (let i = 0; i < length; i++) {
      const code = value.charCodeAt(i) - 48;
      if (code < 0 || code > 9) return null;
      n = n * 10 + code;
    }
    return this.byNumber ? n : n * 10 + length;
  }

  private inRising(key: number): boolean {
    let low = 0;
    let high = this.risingLength - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const at = this.rising[middle];
      if (at === key) return true;
      if (at < key) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }
}
