/** An Int32Array that grows as it is pushed to: a national load's columns and a search index's are millions long. */
export class Int32Column {
  array = new Int32Array(1 << 12);
  length = 0;
  push(value: number): number {
    if (this.length === this.array.length) {
      const grown = new Int32Array(this.array.length * 2);
      grown.set(this.array);
      this.array = grown;
    }
    this.array[this.length] = value;
    return this.length++;
  }
}
