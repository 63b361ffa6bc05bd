// Clean text of an output's markdown (issue 30 item 2): what Copy puts as text/plain and the xlsx holds.
import { describe, expect, it } from 'vitest';
import { markdownToPlainText } from './markdown-text';

describe('markdownToPlainText', () => {
  it('drops headings, emphasis, code marks and fences; a table becomes tab-separated lines', () => {
    const markdown = [
      '### Trail shoes',
      'Run **free** and _light_, ~~slow~~ with `grip` and [our site](https://example.com).',
      '| Model | Grams |\n| --- | ---: |\n| Swift **X** | 180 |',
      '```ts\nconst fast = true;\n```',
      '---',
      '> Quoted line',
    ].join('\n\n');
    expect(markdownToPlainText(markdown)).toBe(
      ['Trail shoes', 'Run free and light, slow with grip and our site.', 'Model\tGrams\nSwift X\t180', 'const fast = true;', 'Quoted line'].join('\n\n'),
    );
  });

  it('keeps list bullets and numbers, nested items indented, and Spanish text as it is', () => {
    expect(markdownToPlainText('- **Rápido**: para correr\n- Ligero\n  - Sin peso')).toBe('• Rápido: para correr\n• Ligero\n  • Sin peso');
    expect(markdownToPlainText('3. Tres\n4. Cuatro')).toBe('3. Tres\n4. Cuatro');
    expect(markdownToPlainText('Línea uno  \nlínea dos')).toBe('Línea uno\nlínea dos');
    expect(markdownToPlainText('Plain text stays.')).toBe('Plain text stays.');
  });
});
