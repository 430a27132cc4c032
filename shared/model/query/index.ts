export * from './ast';
export { tokenize, type Token } from './tokenizer';
export { parseQuery, checkQuery, parseRange, QUERY_FIELDS, type QueryParse } from './parser';
