/**
 * The JSON every bench writes (bench/results/latest/<bench>.json for full-size runs, bench/results/smoke/ for
 * `--smoke`, bench/results/custom/ for other sizes), parsed by `bench:report` and `bench:smoke`. Each goal names the figure it judges by key.
 */
import { z } from 'zod';

const goal = z.object({ op: z.enum(['<=', '>=']), target: z.number() });

const side = z.object({
  label: z.string().min(1),
  samples: z.array(z.number()).min(1),
  median: z.number(),
  min: z.number(),
  max: z.number(),
  cpuMs: z.array(z.number()).nullable(),
});

export const ratioFigureSchema = z.object({
  key: z.string().min(1),
  name: z.string().min(1),
  figureLabel: z.string(),
  baselineLabel: z.string(),
  unit: z.string(),
  goal: goal.nullable(),
  figure: side,
  baseline: side,
  ratios: z.array(z.number()).min(1),
  median: z.number(),
  min: z.number(),
  max: z.number(),
  pass: z.boolean().nullable(),
});

export const absoluteFigureSchema = z.object({
  key: z.string().min(1),
  name: z.string().min(1),
  unit: z.string(),
  value: z.number(),
  goal: goal.nullable(),
  pass: z.boolean().nullable(),
});

export const checkSchema = z.object({ name: z.string().min(1), pass: z.boolean(), detail: z.string().optional() });

export const fingerprintSchema = z.object({
  cpuModel: z.string(),
  cores: z.number().int().positive(),
  memoryGiB: z.number(),
  platform: z.string(),
  node: z.string(),
  chromium: z.string().nullable(),
  postgres: z.string().nullable(),
  loadBefore: z.array(z.number()).length(3),
  loadAfter: z.array(z.number()).length(3),
  machineBusyPercent: z.number(),
  stealPercent: z.number(),
  calibrationMsBefore: z.number().positive(),
  calibrationMsAfter: z.number().positive(),
});

export const goalEntrySchema = z.object({
  /** The figure's key: `ratios[key]` or `absolutes[key]`. */
  figure: z.string().min(1),
  kind: z.enum(['ratio', 'absolute']),
  name: z.string(),
  op: z.enum(['<=', '>=']),
  target: z.number(),
  value: z.number(),
  pass: z.boolean().nullable(),
});

export const benchResultSchema = z
  .object({
    schema: z.literal(1),
    bench: z.string().regex(/^[a-z-]+$/),
    title: z.string().min(1),
    /** full: the bench's default sizes (the only runs BENCHMARKS.md reads); smoke: `--smoke`; custom: anything else. */
    size: z.enum(['full', 'smoke', 'custom']),
    command: z.string().min(1),
    at: z.iso.datetime(),
    commit: z.string(),
    dirty: z.boolean(),
    options: z.record(z.string(), z.unknown()),
    fingerprint: fingerprintSchema,
    wallSeconds: z.number().nonnegative(),
    cpuSeconds: z.number().nonnegative(),
    checks: z.array(checkSchema),
    checksPassed: z.boolean(),
    ratios: z.array(ratioFigureSchema),
    absolutes: z.array(absoluteFigureSchema),
    goals: z.array(goalEntrySchema).min(1),
    details: z.unknown().optional(),
  })
  .superRefine((result, context) => {
    const keys = [...result.ratios, ...result.absolutes].map((figure) => figure.key);
    const duplicate = keys.find((key, index) => keys.indexOf(key) !== index);
    if (duplicate) context.addIssue({ code: 'custom', message: `figure key ${duplicate} is used twice` });
    for (const entry of result.goals) {
      if (!keys.includes(entry.figure)) context.addIssue({ code: 'custom', message: `goal ${entry.name} names no figure (${entry.figure})` });
    }
    if (result.size === 'full') {
      for (const ratio of result.ratios) {
        if (ratio.ratios.length < 5) context.addIssue({ code: 'custom', message: `${ratio.key}: a full-size run needs k ≥ 5 pairs, has ${ratio.ratios.length}` });
      }
    }
  });

export type BenchResult = z.infer<typeof benchResultSchema>;
export type Check = z.infer<typeof checkSchema>;
export type AbsoluteFigure = z.infer<typeof absoluteFigureSchema>;
