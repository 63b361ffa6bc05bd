// The seeded workflows (issue 30 item 8: "a fresh install has no workflow to try"): one in English and one in
// Spanish, each made of seeded library templates (templates/seed.ts) in order, so Start works on a new install.
// Written once per install (template_seeds 'workflows-v1', the seeds' marker table), like the template
// library: a workflow an admin deletes stays deleted. A workflow whose templates an admin already removed
// (or made private) is left out; fields that do not fit together are a bug here, not something to ship.
import { mergeWorkflowFields } from '@pluma/common/rules/workflow-values';
import { parseTemplateFields } from '@pluma/common/rules/template-fields';
import { inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { templates, templateSeeds, workflows, workflowTemplates } from '../../db/schema';

const MARKER = 'workflows-v1';

export interface SeedWorkflow {
  name: string;
  description: string;
  tags: string[];
  /** Seed keys of the library templates (templates/seed.ts SEED_TEMPLATES), in step order. */
  steps: string[];
}

export const SEED_WORKFLOWS: SeedWorkflow[] = [
  {
    name: 'Blog post: from outline to introduction',
    description: 'Plan an SEO-minded outline, then write the opening paragraph from it.',
    tags: ['Blog', 'SEO'],
    steps: ['en-blog-outline', 'en-blog-intro'],
  },
  {
    name: 'Artículo de blog: del esquema a la introducción',
    description: 'Planifica un esquema pensado para SEO y después escribe el primer párrafo a partir de él.',
    tags: ['Blog', 'SEO'],
    steps: ['es-esquema-blog', 'es-introduccion-blog'],
  },
];

/** Writes the workflows once per install, after the template library (several nodes may boot at once: locked). */
export async function seedWorkflows(ctx: AppContext): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('pluma:seed:workflows'))`);
    const done = await tx.insert(templateSeeds).values({ name: MARKER }).onConflictDoNothing().returning();
    if (done.length === 0) return;
    const keys = SEED_WORKFLOWS.flatMap((w) => w.steps);
    const rows = await tx
      .select({ templateId: templates.templateId, seedKey: templates.seedKey, content: templates.content, public: templates.public })
      .from(templates)
      .where(inArray(templates.seedKey, keys));
    const byKey = new Map(rows.map((r) => [r.seedKey, r]));
    for (const entry of SEED_WORKFLOWS) {
      const steps = entry.steps.map((key) => byKey.get(key));
      if (steps.some((s) => !s || !s.public)) continue;
      const ready = steps as NonNullable<(typeof steps)[number]>[];
      const broken = mergeWorkflowFields(ready.map((s) => parseTemplateFields(s.content).fields)).find((f) => !f.isValidField);
      if (broken) throw new Error(`seeded workflow ${entry.name}: field ${broken.name} conflicts`);
      const [workflow] = await tx
        .insert(workflows)
        .values({ name: entry.name, description: entry.description, tags: entry.tags.join(','), createdBy: null })
        .returning({ workflowId: workflows.workflowId });
      await tx.insert(workflowTemplates).values(ready.map((s, position) => ({ workflowId: workflow.workflowId, position, templateId: s.templateId })));
    }
  });
}
