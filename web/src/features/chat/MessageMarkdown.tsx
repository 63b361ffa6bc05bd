// An answer's markdown (DESIGN.md §2: react-markdown + remark-gfm, no raw HTML — rehype-raw is never
// enabled, so HTML in an answer is not rendered). While an answer streams, its text is split into
// top-level blocks and each block is memoized by its text, so only its last, growing block re-renders;
// a finished answer is one block (one markdown pass instead of one per block). Headings
// are renumbered to sit under the page's h1 without skipping levels (heading-levels.ts).
import { Typography } from '@mantine/core';
import { memo, useMemo } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { AnswerImage } from './AnswerImage';
import classes from './Chat.module.css';
import { CodeBlock, nodeText } from './CodeBlock';
import { headingStarts, rehypeHeadingLevels } from './heading-levels';
import { hasCodeFence, splitMarkdownBlocks } from './markdown-blocks';
import { useCodeHighlighter, type RehypePlugins } from './use-code-highlighter';
import { rehypeWebCitations, type CitedSource } from './web-citations';

const REMARK_PLUGINS = [remarkGfm];

const COMPONENTS: Components = {
  // Links from a model open in a new tab without giving it this page (window.opener) or the referrer.
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer" />,
  // Wide tables scroll inside the message instead of widening the page (390 px phones).
  table: ({ node: _node, ...props }) => (
    <div className={classes.tableScroll}>
      <table {...props} />
    </div>
  ),
  // Code blocks get a copy button; the copied text is the code itself, not the highlighting markup.
  pre: ({ node, ...props }) => <CodeBlock {...props} code={nodeText(node)} />,
  // Images from other sites load only on a click (a prompt-injected image URL could carry the chat away).
  img: ({ node: _node, ...props }) => <AnswerImage {...props} />,
};

interface BlockProps {
  text: string;
  /** The shown level of the last heading before this block (heading-levels.ts). */
  headingsAfter: number;
  rehypePlugins: RehypePlugins | undefined;
}

export const MarkdownBlock = memo(function MarkdownBlock({ text, headingsAfter, rehypePlugins }: BlockProps) {
  const plugins = useMemo<RehypePlugins>(() => [[rehypeHeadingLevels, { previous: headingsAfter }], ...(rehypePlugins ?? [])], [headingsAfter, rehypePlugins]);
  return (
    <ReactMarkdown remarkPlugins={REMARK_PLUGINS} rehypePlugins={plugins} components={COMPONENTS}>
      {text}
    </ReactMarkdown>
  );
});

/** `sources`: an answer written with web search; its [1], [2] link to them (web-citations.ts). */
export function MessageMarkdown({ content, streaming = false, sources }: { content: string; streaming?: boolean; sources?: readonly CitedSource[] }) {
  const blocks = useMemo(() => (streaming ? splitMarkdownBlocks(content) : content ? [content] : []), [content, streaming]);
  const starts = useMemo(() => headingStarts(blocks), [blocks]);
  const highlight = useCodeHighlighter(hasCodeFence(content));
  const rehypePlugins = useMemo<RehypePlugins | undefined>(
    () => (sources?.length ? [...(highlight ?? []), [rehypeWebCitations, { sources }]] : highlight),
    [highlight, sources],
  );
  return (
    <Typography className={classes.markdown}>
      {blocks.map((block, index) => (
        // Blocks only grow at the end, so a block's index identifies it for its whole life.
        <MarkdownBlock key={index} text={block} headingsAfter={starts[index]} rehypePlugins={rehypePlugins} />
      ))}
    </Typography>
  );
}
