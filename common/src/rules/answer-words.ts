// Words held for an answer before it is generated, and an answer kept within them (docs/decisions.md,
// "Chat charging"). An answer is charged by its words (countWords), but models are capped in tokens.
//
// The conversion: a token never spans two words. Tokenizers split the text at whitespace before they merge
// characters into tokens (a token is at most one word with its leading space, or whitespace), so an answer
// of N tokens has at most N words: WORDS_PER_TOKEN = 1 makes the hold cover a whole answer. The answer is
// also stopped at its hold, so the ratio never decides what is spent, only how much is set aside.

/** Upper bound of words per token of a model's answer (see above). */
export const WORDS_PER_TOKEN = 1;

/** Words set aside for an answer capped at `maxTokens` tokens (the hold of one whole answer). */
export function answerCapWords(maxTokens: number): number {
  return Math.max(1, Math.ceil(Math.max(0, maxTokens) * WORDS_PER_TOKEN));
}

const WHITESPACE = /\s/;

/**
 * Counts the words of a text as it streams in and cuts it after `limit` words. Words are what
 * countWords() counts (runs of non-whitespace), so countWords(everything kept) <= limit always, and a
 * text within the limit is kept whole.
 */
export class WordBudget {
  private words = 0;
  private inWord = false;
  private reached = false;

  constructor(readonly limit: number) {}

  /** Words counted so far. */
  get count(): number {
    return this.words;
  }

  /** True once a chunk went past the limit (the text was cut). */
  get exhausted(): boolean {
    return this.reached;
  }

  /** The part of `chunk` within the limit; after a cut, every further chunk is ''. */
  take(chunk: string): string {
    if (this.reached) return '';
    for (let i = 0; i < chunk.length; i++) {
      if (WHITESPACE.test(chunk[i])) {
        this.inWord = false;
      } else if (!this.inWord) {
        if (this.words >= this.limit) {
          this.reached = true;
          return chunk.slice(0, i);
        }
        this.words++;
        this.inWord = true;
      }
    }
    return chunk;
  }
}
