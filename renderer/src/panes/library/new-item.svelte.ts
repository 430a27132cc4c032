// New item: a form of the chosen type's fields and creators (shared/model/item-types), checked as the
// core checks it (item-form), saved as one undo step. What was typed survives a change of type: a
// field the new type lacks is kept aside and comes back if the type is changed back.
import type { CitewiseApi, IpcError } from '../../../../shared/ipc';
import type { CslItemType } from '../../../../shared/model/csl';
import { buildNewItem, fieldProblem, type FormProblem } from '../../../../shared/model/item-form';
import { typeCreators, typeFields, type FieldSpec } from '../../../../shared/model/item-types';
import type { ItemDetail } from '../../../../shared/model/library';
import type { EditableCreator } from './details/fields';

/** The type a new item starts as when nothing else was chosen. */
export const DEFAULT_NEW_TYPE: CslItemType = 'article-journal';

export interface NewItemStart {
  type?: CslItemType;
  values?: Record<string, string>;
}

const emptyRow = (role: EditableCreator['role']): EditableCreator => ({
  role,
  single: false,
  family: '',
  given: '',
  literal: '',
  rest: {},
});

export class NewItemForm {
  readonly #api: CitewiseApi;
  #type = $state<CslItemType>(DEFAULT_NEW_TYPE);
  values = $state<Record<string, string>>({});
  creators = $state<EditableCreator[]>([]);
  #problems = $state.raw<FormProblem[]>([]);
  #busy = $state(false);
  #error = $state<IpcError | null>(null);

  constructor(api: CitewiseApi, start: NewItemStart = {}) {
    this.#api = api;
    this.#type = start.type ?? DEFAULT_NEW_TYPE;
    this.values = { ...start.values };
    this.creators = [emptyRow(typeCreators(this.#type)[0]?.role ?? 'author')];
  }

  get type(): CslItemType {
    return this.#type;
  }
  get fields(): readonly FieldSpec[] {
    return typeFields(this.#type);
  }
  get problems(): readonly FormProblem[] {
    return this.#problems;
  }
  get busy(): boolean {
    return this.#busy;
  }
  get error(): IpcError | null {
    return this.#error;
  }

  /** The problem of one field, shown beside it. */
  problemOf(key: string): string | null {
    return this.#problems.find((p) => p.field === key)?.message ?? null;
  }

  setType(type: CslItemType): void {
    this.#type = type;
    // An empty first row takes the new type's main role (Programmer for software, Inventor for a patent).
    // A row of a role the new type lacks stays, showing its role, for the user to change or remove.
    const main = typeCreators(type)[0]?.role ?? 'author';
    this.creators = this.creators.map((c, i) =>
      i === 0 && !c.family && !c.given && !c.literal ? { ...c, role: main } : c,
    );
    this.#problems = this.#problems.filter((p) => p.field === 'title');
  }

  /** A field typed into: its own problem is checked as soon as it is left (a DOI, an ISBN's check digit). */
  check(key: string): void {
    const problem = fieldProblem(key, this.values[key] ?? '');
    const label = this.fields.find((f) => f.key === key)?.label ?? key;
    const others = this.#problems.filter((p) => p.field !== key);
    this.#problems = problem ? [...others, { field: key, message: `${label}: ${problem}` }] : others;
  }

  /** The values of the chosen type's fields only (others stay in `values`, in case the type comes back). */
  #typed(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const f of this.fields) if (this.values[f.key]?.trim()) out[f.key] = this.values[f.key]!;
    if (this.values['abstract']?.trim()) out['abstract'] = this.values['abstract'];
    return out;
  }

  /** Saves the item (filed into `collectionId` when given); null when it was refused (the problems say why). */
  async save(collectionId: number | null): Promise<ItemDetail | null> {
    const people = this.creators.map((c) =>
      c.single ? { role: c.role, literal: c.literal } : { role: c.role, family: c.family, given: c.given },
    );
    const built = buildNewItem(this.#type, this.#typed(), people);
    if (!built.ok) {
      this.#problems = built.problems;
      return null;
    }
    this.#problems = [];
    this.#error = null;
    this.#busy = true;
    const { id: _draft, ...csl } = built.item;
    const result = await this.#api.invoke('library.item.create', { csl, collectionId });
    this.#busy = false;
    if (result.ok) return result.value;
    const problems = (result.error.details as { problems?: FormProblem[] } | undefined)?.problems;
    if (problems) this.#problems = problems;
    else this.#error = result.error;
    return null;
  }
}
