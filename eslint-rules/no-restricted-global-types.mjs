/**
 * ten-segments/no-restricted-global-types: the type-position half of
 * no-restricted-globals. ESLint's no-restricted-globals skips references in
 * type positions (`c: Combat.Implementation`, `el: HTMLElement`, `typeof
 * game`), but fvtt-types and the DOM lib declare those names globally, so the
 * engine could lean on Foundry through its types alone. Same options as
 * no-restricted-globals (names, or {name, message}); reports only what that
 * rule leaves out, so the two together cover every use. No type information
 * needed: it reads the scope (a name declared or imported in the file is not
 * a global).
 */

/** The parents ESLint's no-restricted-globals treats as a type position. */
const TYPE_NODES = new Set(['TSTypeReference', 'TSInterfaceHeritage', 'TSClassImplements', 'TSTypeQuery', 'TSQualifiedName']);

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Disallow restricted global names in type positions (Foundry and DOM types in the pure engine).' },
    schema: {
      type: 'array',
      items: {
        oneOf: [
          { type: 'string' },
          {
            type: 'object',
            properties: { name: { type: 'string' }, message: { type: 'string' } },
            required: ['name'],
            additionalProperties: false,
          },
        ],
      },
    },
    messages: {
      restricted: "Unexpected use of the global type '{{name}}'. {{message}}",
    },
  },
  create(context) {
    const messages = new Map();
    for (const option of context.options) {
      if (typeof option === 'string') messages.set(option, '');
      else messages.set(option.name, option.message ?? '');
    }
    if (messages.size === 0) return {};
    return {
      Program(node) {
        const scope = context.sourceCode.getScope(node);
        const references = [...scope.through];
        // Names ESLint declares as globals (languageOptions.globals) resolve to a variable without definitions.
        for (const variable of scope.variables) if (variable.defs.length === 0) references.push(...variable.references);
        for (const reference of references) {
          const { name, parent } = reference.identifier;
          if (!messages.has(name) || !TYPE_NODES.has(parent?.type)) continue;
          context.report({ node: reference.identifier, messageId: 'restricted', data: { name, message: messages.get(name) } });
        }
      },
    };
  },
};
