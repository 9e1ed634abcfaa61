/** Anything with zod's `safeParse` (the contract's schemas), so forms validate by the server's rules. */
interface Parser {
  safeParse(value: unknown): { success: boolean };
}

/** An Arco form rule from a contract schema: the field is checked exactly as the server will check it. */
export function schemaRule(schema: Parser, message: string) {
  return {
    validator(value: unknown, callback: (error?: string) => void) {
      if (value === undefined || value === '' || schema.safeParse(value).success) callback();
      else callback(message);
    },
  };
}
