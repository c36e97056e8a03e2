/**
 * ten-segments/no-combat-writes: the apps (src/apps) never write a Combat,
 * its Combatants or its CombatantGroups themselves. A change to a combat goes
 * through the GM's request path in src/documents (requests, queries); a sheet
 * saves its own Actor or Item as usual.
 *
 * Reported: a call of a document write method (update, delete, setFlag, …)
 * whose receiver's type is, or extends, Foundry's Combat, Combatant or
 * CombatantGroup (so the system's TenSegmentsCombat & co. too), an instance
 * or the class itself (`Combat.create`, `CONFIG.Combat.documentClass
 * .updateDocuments`); and the same call on an `any`-typed receiver named like
 * a combat (`combat`, `combatant`, `game.combat`, `(x as any).combatants
 * .get(id)`), where the type checker cannot tell.
 *
 * Needs type information: enable it with typescript-eslint's parser and
 * `parserOptions.projectService` (or `project`).
 */
import ts from 'typescript';

/** Document write methods (instance and static). */
export const WRITE_METHODS = new Set([
  'update',
  'delete',
  'setFlag',
  'unsetFlag',
  'updateSource',
  'createEmbeddedDocuments',
  'updateEmbeddedDocuments',
  'deleteEmbeddedDocuments',
  'create',
  'createDocuments',
  'updateDocuments',
  'deleteDocuments',
]);

/** Foundry's combat documents and the system's subclasses (src/documents). */
const COMBAT_CLASSES = new Set([
  'Combat',
  'Combatant',
  'CombatantGroup',
  'BaseCombat',
  'BaseCombatant',
  'BaseCombatantGroup',
  'TenSegmentsCombat',
  'TenSegmentsCombatant',
  'TenSegmentsCombatantGroup',
]);

/** Their document names (`documentName`). */
const DOCUMENT_NAMES = new Set(['Combat', 'Combatant', 'CombatantGroup']);

/** Where those classes are declared: Foundry's types, or the system's documents. */
const DECLARED_IN = /[\\/](node_modules[\\/](fvtt-types|@league-of-foundry-developers)[\\/]|src[\\/]documents[\\/])/;

/** A name that reads as a combat, a combatant or a side (for `any` receivers). */
const COMBAT_NAME = /combat|^(groups?|sides?)$/i;

/** Collection look-ups whose result is named after the collection (`combat.combatants.get(id)`). */
const LOOKUPS = new Set(['get', 'find', 'getName', 'at', 'filter', 'contents']);

function propertyName(member) {
  if (member.type !== 'MemberExpression') return null;
  if (!member.computed && member.property.type === 'Identifier') return member.property.name;
  if (member.property.type === 'Literal' && typeof member.property.value === 'string') return member.property.value;
  if (member.property.type === 'PrivateIdentifier') return null;
  return null;
}

/** The name a receiver expression goes by, for the `any` case. */
function receiverName(node) {
  switch (node.type) {
    case 'Identifier':
      return node.name;
    case 'ThisExpression':
      return 'this';
    case 'MemberExpression':
      return propertyName(node);
    case 'ChainExpression':
    case 'TSNonNullExpression':
    case 'TSAsExpression':
    case 'TSTypeAssertion':
    case 'TSSatisfiesExpression':
      return receiverName(node.expression);
    case 'AwaitExpression':
      return receiverName(node.argument);
    case 'CallExpression': {
      const callee = node.callee.type === 'ChainExpression' ? node.callee.expression : node.callee;
      const name = propertyName(callee);
      if (name && LOOKUPS.has(name)) return receiverName(callee.object);
      return null;
    }
    default:
      return null;
  }
}

export default {
  meta: {
    type: 'problem',
    docs: {
      description: 'The apps never write a Combat, Combatant or CombatantGroup directly: combat changes go through the GM request path in src/documents.',
    },
    schema: [],
    messages: {
      typed:
        'src/apps must not write the combat: `{{method}}` on a {{what}}. Send the change through the GM request path in src/documents (requests/queries) instead.',
      untyped:
        'src/apps must not write the combat: `{{method}}` on `{{name}}` (typed any, named like a combat). Send the change through the GM request path in src/documents instead, or give it a real type.',
    },
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    if (!services?.program || !services.esTreeNodeToTSNodeMap) {
      throw new Error('ten-segments/no-combat-writes needs type information: set parserOptions.projectService (or project) for these files.');
    }
    const checker = services.program.getTypeChecker();
    const seen = new Map();

    /** The combat class a type is or extends (instance or constructor), or null. */
    function combatClassOf(type, depth = 0) {
      if (!type || depth > 12) return null;
      if (seen.has(type)) return seen.get(type);
      seen.set(type, null); // cycles
      const found = lookup(type, depth);
      seen.set(type, found);
      return found;
    }

    function lookup(type, depth) {
      if (type.isUnion() || type.isIntersection()) {
        for (const part of type.types) {
          const hit = combatClassOf(part, depth + 1);
          if (hit) return hit;
        }
        return null;
      }
      if (type.flags & ts.TypeFlags.TypeParameter) {
        const constraint = checker.getBaseConstraintOfType(type);
        return constraint && constraint !== type ? combatClassOf(constraint, depth + 1) : null;
      }
      const symbol = type.getSymbol() ?? type.aliasSymbol;
      if (symbol && COMBAT_CLASSES.has(symbol.getName()) && (symbol.getDeclarations() ?? []).some((d) => DECLARED_IN.test(d.getSourceFile().fileName))) {
        return symbol.getName();
      }
      // Instances: the classes this one extends.
      const target = type.flags & ts.TypeFlags.Object && type.objectFlags & ts.ObjectFlags.Reference ? type.target : type;
      if (target.isClassOrInterface?.()) {
        for (const base of checker.getBaseTypes(target)) {
          const hit = combatClassOf(base, depth + 1);
          if (hit) return hit;
        }
      }
      // Classes themselves (static create / updateDocuments …): what they construct.
      for (const signature of type.getConstructSignatures()) {
        const hit = combatClassOf(signature.getReturnType(), depth + 1);
        if (hit) return `${hit} class`;
      }
      // Mapped and overridden shapes of a document (`game.combat` is fvtt-types'
      // `_Override<Combat, …>`, `Combat.Stored` …): a Foundry document says which
      // it is in `documentName`.
      if (type.flags & ts.TypeFlags.Object) {
        const names = documentNamesOf(type);
        if (names) return type.getConstructSignatures().length > 0 ? `${names} class` : names;
      }
      return null;
    }

    /** The combat document names a type's `documentName` is limited to ("Combat" …), or null. */
    function documentNamesOf(type) {
      const property = checker.getPropertyOfType(type, 'documentName');
      if (!property) return null;
      const nameType = checker.getTypeOfSymbol(property);
      const parts = nameType.isUnion() ? nameType.types : [nameType];
      if (!parts.every((t) => t.isStringLiteral() && DOCUMENT_NAMES.has(t.value))) return null;
      return parts.map((t) => t.value).join(' | ');
    }

    function check(call, member) {
      const method = propertyName(member);
      if (!method || !WRITE_METHODS.has(method)) return;
      const receiver = member.object;
      if (receiver.type === 'Super') return; // a document's own override calling core's
      const tsNode = services.esTreeNodeToTSNodeMap.get(receiver);
      if (!tsNode) return;
      const type = checker.getTypeAtLocation(tsNode);
      if (type.flags & ts.TypeFlags.Any) {
        const name = receiverName(receiver);
        if (name && COMBAT_NAME.test(name)) context.report({ node: call, messageId: 'untyped', data: { method, name } });
        return;
      }
      const what = combatClassOf(type);
      if (what) context.report({ node: call, messageId: 'typed', data: { method, what } });
    }

    return {
      CallExpression(call) {
        let callee = call.callee.type === 'ChainExpression' ? call.callee.expression : call.callee;
        if (callee.type !== 'MemberExpression') return;
        // combat.update.call(…) / .apply(…)
        const name = propertyName(callee);
        if ((name === 'call' || name === 'apply') && callee.object.type === 'MemberExpression') callee = callee.object;
        check(call, callee);
      },
    };
  },
};
