// What the terminal shows of the kernel's console: everything, except that the RESULT line
// (one line of JSON, often thousands of characters) is shortened to a note, so the kernel's
// own table above it stays on screen. The full line stays in the pane's console text and in
// the RESULT download. Pure (no DOM): the unit tests run it in node.

const MARK = "RESULT ";

export class ResultLineFilter {
  /** `note(bytes)` is the text shown in place of a RESULT line of that many characters. */
  constructor(note) {
    this.note = note;
    this.held = ""; // the start of a line that may be a RESULT line
    this.midLine = false; // the current line has been written in part, so it is not one
  }

  /** The text to show for the next piece of console text. */
  push(text) {
    let out = "";
    for (const piece of text.split(/(?<=\n)/)) {
      if (this.midLine) {
        out += piece;
      } else {
        this.held += piece;
        if (this.held.startsWith(MARK)) {
          if (this.held.endsWith("\n")) {
            out += `${MARK}${this.note(this.held.length - MARK.length - 1)}\n`;
            this.held = "";
          }
          continue;
        }
        if (MARK.startsWith(this.held) && !this.held.endsWith("\n")) continue; // too short to tell
        out += this.held;
        this.held = "";
      }
      this.midLine = !piece.endsWith("\n") && !this.held;
    }
    return out;
  }
}
