// Types of iri-grammar/ajv (ajv.js). Structural, so that the package needs no
// dependency on ajv's types.
export interface AjvLike {
  addFormat(name: string, format: { type: 'string'; validate: (s: string) => boolean }): unknown;
}

export interface IriFormatsOptions {
  /** `true`: replace existing `uri`/`uri-reference` (ajv-formats'); `false`: leave
   *  them alone; absent: add them where the instance has none. */
  uri?: boolean;
}

export default function addIriFormats<A extends AjvLike>(ajv: A, options?: IriFormatsOptions): A;
export { addIriFormats };
