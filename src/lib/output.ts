/**
 * Building blocks of the output schemas the operations declare beside them (lib/operation.ts):
 * describe-only, loose objects, so a field an answer adds is still sent and still documented as allowed.
 */
import { z } from 'zod';

export const int = z.number().int();
export const ts = z.number().describe('epoch seconds');
export const str = z.string();
export const bool = z.boolean();
export const warnings = z.array(str).describe('what went less well than asked, in plain words');
export const obj = z.looseObject;
export const list = <S extends z.core.$ZodLooseShape>(shape: S) => z.array(z.looseObject(shape));
/** Rows attached to an entity, by table and column (a merge's or a delete's preview). */
export const counts = z.record(str, int).describe('rows attached to the entity, by table and column');
