import { Environment, Interpreter, parse, tokenize } from '@huggingface/jinja';

/**
 * The Jinja of Home Assistant's MQTT templates (`value_template`, `command_template`, …), through
 * @huggingface/jinja: an interpreter over its own values (no JavaScript object is reachable from a
 * template, unlike compiled engines), with what Home Assistant adds (`float`, `int` and `round` as
 * HA has them, `multiply`, `is_defined`, `to_json`, `timestamp_local`, `unpack`, `now()`,
 * `as_timestamp()`, `iif()`, dicts with number and None keys) and Python's way of printing values
 * (`True`, `None`). Each evaluation is capped in time and steps, and no value it builds may grow
 * past MAX_TEXT characters or MAX_ITEMS items; a template that fails says why and never throws.
 */

/** Longest template source taken (real ones are under 3 KB; Zigbee2MQTT's event program the largest). */
export const MAX_TEMPLATE_SOURCE = 16 * 1024;
/** Longest string, and most items of a list or dict, any step of an evaluation may make. */
export const MAX_TEXT = 512 * 1024;
export const MAX_ITEMS = 10_000;
/** Time and interpreter steps one evaluation may take. */
export const TEMPLATE_TIMEOUT_MS = 25;
const MAX_STEPS = 200_000;
/** A template that ran out of time this often is not run again (it would cost the cap each message). */
const TIMEOUTS_BEFORE_DISABLED = 3;

export type TemplateResult = { ok: true; text: string } | { ok: false; error: string };

type Runtime = { type: string; value: unknown; toString(): string; __bool__(): { value: boolean } };
type Node = { type: string; [key: string]: unknown };

// The runtime value classes are not exported: taken from values the library makes itself.
const probe = new Environment();
const make = <T>(name: string, value: unknown) => probe.set(name, value).constructor as T;
type Ctor<V> = new (value: V) => Runtime;
const IntegerValue = make<Ctor<number>>('i', 1);
const FloatValue = make<Ctor<number>>('f', 1.5);
const StringValue = make<Ctor<string>>('s', '');
const BooleanValue = make<Ctor<boolean>>('b', true);
const NullValue = make<Ctor<null>>('n', null);
const ArrayValue = make<Ctor<Runtime[]>>('a', []);
const ObjectValue = make<Ctor<Map<string, Runtime>>>('o', {});
const FunctionValue = make<Ctor<(args: Runtime[], env: Environment) => Runtime>>('fn', () => 0);
const UndefinedValue = probe.lookupVariable('nothing').constructor as Ctor<undefined>;

// The values this module makes are made from the classes' prototypes, not through their
// constructors: the library's class fields define `type` again in every subclass, which V8 runs
// as a slow generic property definition once that code has seen several classes (about 0.6 µs a
// value, against a few ns), and each message converts its JSON and each render makes a few. One
// function per class, so that each one's stores see one shape. Same own properties, same order.
const proto = (ctor: Ctor<never>) => ctor.prototype as object;
const INTEGER = proto(IntegerValue as Ctor<never>);
const FLOAT = proto(FloatValue as Ctor<never>);
const STRING = proto(StringValue as Ctor<never>);
const BOOLEAN = proto(BooleanValue as Ctor<never>);
const NULL = proto(NullValue as Ctor<never>);
const UNDEFINED = proto(UndefinedValue as Ctor<never>);
const ARRAY = proto(ArrayValue as Ctor<never>);
const OBJECT = proto(ObjectValue as Ctor<never>);
const FUNCTION = proto(FunctionValue as Ctor<never>);
function integer(value: number): Runtime {
  const made = Object.create(INTEGER);
  made.type = 'IntegerValue';
  made.value = value;
  return made;
}
function float(value: number): Runtime {
  const made = Object.create(FLOAT);
  made.type = 'FloatValue';
  made.value = value;
  return made;
}
function string(value: string): Runtime {
  const made = Object.create(STRING);
  made.type = 'StringValue';
  made.value = value;
  made._builtins = undefined;
  return made;
}
function array(value: Runtime[]): Runtime {
  const made = Object.create(ARRAY);
  made.type = 'ArrayValue';
  made.value = value;
  made._builtins = undefined;
  return made;
}
function object(value: Map<string, Runtime>): Runtime {
  const made = Object.create(OBJECT);
  made.type = 'ObjectValue';
  made.value = value;
  made._builtins = undefined;
  return made;
}
function func(value: (args: Runtime[], env: Environment) => Runtime): Runtime {
  const made = Object.create(FUNCTION);
  made.type = 'FunctionValue';
  made.value = value;
  return made;
}
function constant(prototype: object, type: string, value: unknown): Runtime {
  const made = Object.create(prototype);
  made.type = type;
  made.value = value;
  return made;
}
// Values that never change, shared.
const TRUE = constant(BOOLEAN, 'BooleanValue', true);
const FALSE = constant(BOOLEAN, 'BooleanValue', false);
const NONE = constant(NULL, 'NullValue', null);
const NOTHING = constant(UNDEFINED, 'UndefinedValue', undefined);
const boolean = (value: boolean) => (value ? TRUE : FALSE);

class TemplateError extends Error {}

// By the values' types (each class says its own): the library's subclasses count as their parents.
const isNumber = (value: Runtime) => value.type === 'IntegerValue' || value.type === 'FloatValue';
const isString = (value: Runtime) => value.type === 'StringValue';
const isUndefined = (value: Runtime) => value.type === 'UndefinedValue';
const isObject = (value: Runtime) => value.type === 'ObjectValue' || value.type === 'KeywordArgumentsValue';
const isArray = (value: Runtime) => value.type === 'ArrayValue' || value.type === 'TupleValue';

const number = (value: number): Runtime =>
  Number.isInteger(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER ? integer(value) : float(value);

/** A JavaScript value (JSON's kinds) as a runtime value (each message's JSON goes through here). */
export function toRuntime(value: unknown, depth = 0): Runtime {
  if (depth > 64) throw new TemplateError('value nested too deeply');
  switch (typeof value) {
    case 'string':
      return string(value);
    case 'number':
      return Number.isInteger(value) ? integer(value) : float(value);
    case 'boolean':
      return boolean(value);
    case 'object': {
      if (value === null) return NONE;
      if (Array.isArray(value)) {
        const items: Runtime[] = [];
        for (const item of value) items.push(toRuntime(item, depth + 1));
        return array(items);
      }
      const entries = new Map<string, Runtime>();
      for (const key of Object.keys(value))
        entries.set(key, toRuntime((value as Record<string, unknown>)[key], depth + 1));
      return object(entries);
    }
    default:
      return NOTHING;
  }
}

/** Python's repr of a float: `1.0`, `0.1`, `1e+16`. */
const pyFloat = (value: number): string => {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return value.toFixed(1);
  return String(value);
};

const pyQuote = (text: string) =>
  `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;

/** How Python (and so Home Assistant) prints a value: `True`, `None`, `[1, 'a']`, `{'a': 1}`. */
export function pyStr(value: Runtime, nested = false): string {
  switch (value.type) {
    case 'UndefinedValue':
      return '';
    case 'NullValue':
      return 'None';
    case 'BooleanValue':
      return value.value ? 'True' : 'False';
    case 'FloatValue':
      return pyFloat(value.value as number);
    case 'IntegerValue':
      return String(value.value);
    case 'StringValue':
      return nested ? pyQuote(value.value as string) : (value.value as string);
    case 'ArrayValue':
    case 'TupleValue':
      return `[${(value.value as Runtime[]).map((item) => pyStr(item, true)).join(', ')}]`;
    case 'ObjectValue':
    case 'KeywordArgumentsValue':
      return `{${[...(value.value as Map<string, Runtime>)].map(([k, v]) => `${pyQuote(k)}: ${pyStr(v, true)}`).join(', ')}}`;
    default:
      return value.toString();
  }
}

/** A Python-like text form of a runtime value, for `str()` and payload comparisons. */
const text = (value: Runtime) => pyStr(value);

/** Python's float(): whitespace, sign, digits, exponent, inf and nan; anything else is not a number. */
function parseFloatStrict(raw: string): number | undefined {
  const trimmed = raw.trim().toLowerCase();
  if (/^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/.test(trimmed)) return Number(trimmed);
  if (/^[+-]?(inf|infinity)$/.test(trimmed)) return trimmed.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/.test(trimmed)) return Number.NaN;
  return undefined;
}

function toFloat(value: Runtime): number | undefined {
  if (isNumber(value)) return value.value as number;
  if (value.type === 'BooleanValue') return value.value ? 1 : 0;
  if (isString(value)) return parseFloatStrict(value.value as string);
  return undefined;
}

/** Jinja's int(): a whole number, else the integer part of a float; in `base` for text. */
function toInt(value: Runtime, base = 10): number | undefined {
  if (isNumber(value)) return Math.trunc(value.value as number);
  if (value.type === 'BooleanValue') return value.value ? 1 : 0;
  if (!isString(value)) return undefined;
  const raw = (value.value as string).trim();
  const whole = base === 10 ? /^[+-]?\d+$/ : base === 16 ? /^[+-]?(0x)?[0-9a-f]+$/i : /^[+-]?[0-9a-z]+$/i;
  if (whole.test(raw)) {
    const parsed = Number.parseInt(raw, base);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  const float = parseFloatStrict(raw);
  return float === undefined || !Number.isFinite(float) ? undefined : Math.trunc(float);
}

/** Python's round(): half to even. */
function pyRound(value: number, digits: number): number {
  const factor = 10 ** digits;
  const scaled = value * factor;
  const floor = Math.floor(scaled);
  const diff = scaled - floor;
  const rounded = Math.abs(diff - 0.5) < 1e-9 ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(scaled);
  return rounded / factor;
}

/** Python's isoformat of a time in this server's zone: `2026-01-05T10:30:00+01:00`. */
function isoLocal(ms: number): string {
  const date = new Date(ms);
  const offset = -date.getTimezoneOffset();
  const pad = (n: number) => String(Math.trunc(Math.abs(n))).padStart(2, '0');
  const sign = offset >= 0 ? '+' : '-';
  const local = new Date(ms + offset * 60_000).toISOString().slice(0, 19);
  return `${local}${sign}${pad(offset / 60)}:${pad(offset % 60)}`;
}

/** A time object for now() and utcnow(): `as_timestamp(now())`, `now().strftime('%H:%M')`, `now().isoformat()`. */
function timeValue(ms: number): Runtime {
  const members = new Map<string, Runtime>([
    ['__timestamp__', float(ms / 1000)],
    ['timestamp', func(() => float(ms / 1000))],
    ['isoformat', func(() => string(isoLocal(ms)))],
    [
      'strftime',
      func(([format]) => {
        if (!format || !isString(format)) throw new TemplateError('strftime takes a format');
        return string(strftime(new Date(ms), format.value as string));
      }),
    ],
  ]);
  return object(members);
}

function strftime(date: Date, format: string): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return format.replace(/%[YmdHMSfyjpIaAbBz%]/g, (token) => {
    switch (token) {
      case '%Y':
        return String(date.getFullYear());
      case '%y':
        return pad(date.getFullYear() % 100);
      case '%m':
        return pad(date.getMonth() + 1);
      case '%d':
        return pad(date.getDate());
      case '%H':
        return pad(date.getHours());
      case '%I':
        return pad(date.getHours() % 12 || 12);
      case '%p':
        return date.getHours() < 12 ? 'AM' : 'PM';
      case '%M':
        return pad(date.getMinutes());
      case '%S':
        return pad(date.getSeconds());
      case '%f':
        return pad(date.getMilliseconds() * 1000, 6);
      case '%j':
        return pad(
          Math.floor((date.getTime() - new Date(date.getFullYear(), 0, 1).getTime()) / 86_400_000) + 1,
          3,
        );
      case '%a':
        return date.toLocaleString('en-US', { weekday: 'short' });
      case '%A':
        return date.toLocaleString('en-US', { weekday: 'long' });
      case '%b':
        return date.toLocaleString('en-US', { month: 'short' });
      case '%B':
        return date.toLocaleString('en-US', { month: 'long' });
      case '%z': {
        const offset = -date.getTimezoneOffset();
        return `${offset >= 0 ? '+' : '-'}${pad(Math.trunc(Math.abs(offset) / 60))}${pad(Math.abs(offset) % 60)}`;
      }
      default:
        return '%';
    }
  });
}

/** struct.unpack of the first value of a format, on bytes given as a latin1 string (`encoding: ""`). */
function unpack(bytes: string, format: string, offset: number): number {
  const buffer = Buffer.from(bytes, 'latin1');
  const little = !format.startsWith('>') && !format.startsWith('!');
  const code = format.replace(/^[<>!=@]/, '');
  const read: Record<string, [number, (at: number) => number]> = {
    b: [1, (at) => buffer.readInt8(at)],
    B: [1, (at) => buffer.readUInt8(at)],
    h: [2, (at) => (little ? buffer.readInt16LE(at) : buffer.readInt16BE(at))],
    H: [2, (at) => (little ? buffer.readUInt16LE(at) : buffer.readUInt16BE(at))],
    i: [4, (at) => (little ? buffer.readInt32LE(at) : buffer.readInt32BE(at))],
    I: [4, (at) => (little ? buffer.readUInt32LE(at) : buffer.readUInt32BE(at))],
    f: [4, (at) => (little ? buffer.readFloatLE(at) : buffer.readFloatBE(at))],
    d: [8, (at) => (little ? buffer.readDoubleLE(at) : buffer.readDoubleBE(at))],
  };
  const entry = read[code];
  if (!entry) throw new TemplateError(`unpack: format ${format} is not supported`);
  if (offset < 0 || offset + entry[0] > buffer.length) throw new TemplateError('unpack: not enough bytes');
  return entry[1](offset);
}

/** A dict key as the interpreter stores it: text as is, other keys (`0`, `None`, `True`) as Python prints them. */
const dictKey = (key: Runtime): string => (isString(key) ? (key.value as string) : pyStr(key));

// What the interpreter has and the typings hide: the hooks this evaluator takes over.
interface InterpreterHooks {
  evaluate(statement: Node | undefined, environment: Environment): Runtime;
  evaluateBlock(statements: Node[], environment: Environment): Runtime;
  evaluateMemberExpression(expr: Node, environment: Environment): Runtime;
  evaluateCallExpression(expr: Node, environment: Environment): Runtime;
  evaluateBinaryExpression(node: Node, environment: Environment): Runtime;
  evaluateTernaryExpression(node: Node, environment: Environment): Runtime;
  evaluateIf(node: Node, environment: Environment): Runtime;
  evaluateArguments(args: Node[], environment: Environment): [Runtime[], Map<string, Runtime>];
  applyFilter(operand: Runtime, filterNode: Node, environment: Environment): Runtime;
}
const Base = Interpreter as unknown as new (env: Environment) => InterpreterHooks;

/** Node types that print nothing themselves. */
const SILENT = new Set(['Set', 'Comment', 'Macro']);

/** The kinds whose truth is their value's (the library's default __bool__; lists and dicts have their own). */
const PLAIN_TRUTH = new Set([
  'IntegerValue',
  'FloatValue',
  'StringValue',
  'BooleanValue',
  'NullValue',
  'UndefinedValue',
]);

/** `value.__bool__().value`, without the library's new BooleanValue each time for the plain kinds. */
const truthy = (value: Runtime) =>
  PLAIN_TRUTH.has(value.type) ? Boolean(value.value) : value.__bool__().value;

/** A literal's value, made once per parsed template (literals are never changed). */
function literal(node: Node & { runtime?: Runtime }): Runtime {
  if (node.runtime === undefined)
    node.runtime =
      node.type === 'StringLiteral'
        ? string(node.value as string)
        : node.type === 'IntegerLiteral'
          ? integer(node.value as number)
          : float(node.value as number);
  return node.runtime;
}

class BoundedInterpreter extends Base {
  private steps = 0;
  private deadline = 0;

  /** Starts an evaluation: its steps counted from 0, its time until `deadline`. */
  reset(deadline: number) {
    this.steps = 0;
    this.deadline = deadline;
  }

  private step() {
    this.steps++;
    if ((this.steps & 255) === 0) {
      if (this.steps > MAX_STEPS) throw new TemplateError('template took too many steps');
      if (performance.now() > this.deadline) throw new TemplateTimeout('template took too long');
    }
  }

  override evaluate(statement: Node | undefined, environment: Environment): Runtime {
    // A node that holds a value already (evaluateMemberExpression hands the library one).
    if (statement?.type === 'Literal') return statement.value as Runtime;
    this.step();
    switch (statement?.type) {
      case 'StringLiteral':
      case 'IntegerLiteral':
      case 'FloatLiteral':
        return literal(statement);
      case 'ObjectLiteral':
        return this.objectLiteral(statement, environment);
      case 'Macro':
      case 'CallStatement':
        throw new TemplateError('macros are not supported');
    }
    const result = super.evaluate(statement, environment);
    if (isString(result) && (result.value as string).length > MAX_TEXT)
      throw new TemplateError('template result too large');
    if (
      (isArray(result) && (result.value as Runtime[]).length > MAX_ITEMS) ||
      (isObject(result) && (result.value as Map<string, Runtime>).size > MAX_ITEMS)
    )
      throw new TemplateError('template value too large');
    return result;
  }

  override evaluateTernaryExpression(node: Node, environment: Environment): Runtime {
    return truthy(this.evaluate(node.condition as Node, environment))
      ? this.evaluate(node.trueExpr as Node, environment)
      : this.evaluate(node.falseExpr as Node, environment);
  }

  override evaluateIf(node: Node, environment: Environment): Runtime {
    const test = truthy(this.evaluate(node.test as Node, environment));
    return this.evaluateBlock((test ? node.body : node.alternate) as Node[], environment);
  }

  /** Python prints True, False and None; the library would print true, false and nothing. */
  override evaluateBlock(statements: Node[], environment: Environment): Runtime {
    // A loop runs its body through here, also an empty one: each run is a step.
    this.step();
    let out = '';
    for (const statement of statements) {
      const value = this.evaluate(statement, environment);
      if (SILENT.has(statement.type)) continue;
      out += pyStr(value);
      if (out.length > MAX_TEXT) throw new TemplateError('template result too large');
    }
    return string(out);
  }

  /** Dict literals may have number, boolean and None keys (`{0: 'off', None: None}`). */
  private objectLiteral(statement: Node, environment: Environment): Runtime {
    const mapping = new Map<string, Runtime>();
    for (const [key, value] of statement.value as [Node, Node][]) {
      mapping.set(dictKey(this.evaluate(key, environment)), this.evaluate(value, environment));
    }
    return object(mapping);
  }

  /** `values[key]` with a number or None key; `value_json.a.0`. */
  override evaluateMemberExpression(expr: Node, environment: Environment): Runtime {
    if (expr.computed && (expr.property as Node).type !== 'SliceExpression') {
      const object = this.evaluate(expr.object as Node, environment);
      const property = this.evaluate(expr.property as Node, environment);
      if (isObject(object)) {
        const map = object.value as Map<string, Runtime>;
        return map.get(dictKey(property)) ?? NOTHING;
      }
      if ((isArray(object) || isString(object)) && isNumber(property)) {
        const index = property.value as number;
        if (isString(object)) {
          const character = (object.value as string).at(index);
          return character === undefined ? NOTHING : string(character);
        }
        return (object.value as Runtime[]).at(index) ?? NOTHING;
      }
      if (isUndefined(object)) return NOTHING;
      return super.evaluateMemberExpression(
        { ...expr, object: { type: 'Literal', value: object } as Node, computed: true },
        environment,
      );
    }
    const object = this.evaluate(expr.object as Node, environment);
    // Jinja: an attribute of something undefined is undefined (HA's templates test `is defined` after).
    if (isUndefined(object)) return NOTHING;
    // `value_json.key`: the key's value when the dict has it (else the library's way, its methods).
    if (isObject(object) && (expr.property as Node).type === 'Identifier') {
      const found = (object.value as Map<string, Runtime>).get((expr.property as Node).value as string);
      if (found !== undefined) return found;
    }
    if (isArray(object) && (expr.property as Node).type === 'IntegerLiteral') {
      return (object.value as Runtime[]).at((expr.property as Node).value as number) ?? NOTHING;
    }
    return super.evaluateMemberExpression(
      { ...expr, object: { type: 'Literal', value: object } as Node },
      environment,
    );
  }

  /** `text.replace(a, b)` is bounded before it runs (it is the one method that multiplies text). */
  override evaluateCallExpression(expr: Node, environment: Environment): Runtime {
    const callee = expr.callee as Node;
    if (
      callee.type === 'MemberExpression' &&
      !callee.computed &&
      (callee.property as Node).value === 'replace'
    ) {
      const object = this.evaluate(callee.object as Node, environment);
      const [args] = this.evaluateArguments(expr.args as Node[], environment);
      if (isString(object)) return replaceBounded(object, args);
    }
    return super.evaluateCallExpression(expr, environment);
  }

  override applyFilter(operand: Runtime, filterNode: Node, environment: Environment): Runtime {
    const name =
      filterNode.type === 'Identifier'
        ? (filterNode.value as string)
        : ((filterNode.callee as Node)?.value as string);
    const args =
      filterNode.type === 'CallExpression'
        ? this.evaluateArguments(filterNode.args as Node[], environment)
        : ([[], new Map()] as [Runtime[], Map<string, Runtime>]);
    const custom = FILTERS[name];
    if (custom) return custom(operand, args[0], args[1]);
    return super.applyFilter(operand, filterNode, environment);
  }
}

class TemplateTimeout extends TemplateError {}

function replaceBounded(object: Runtime, args: Runtime[]): Runtime {
  const [from, to, count] = args;
  if (!from || !to || !isString(from) || !isString(to)) throw new TemplateError('replace takes two strings');
  const source = object.value as string;
  const needle = from.value as string;
  const insert = to.value as string;
  const limit = count && isNumber(count) ? (count.value as number) : -1;
  const occurrences = needle === '' ? source.length + 1 : source.split(needle).length - 1;
  const times = limit < 0 ? occurrences : Math.min(limit, occurrences);
  if (source.length + times * (insert.length - needle.length) > MAX_TEXT)
    throw new TemplateError('template result too large');
  if (needle === '') {
    let out = '';
    let done = 0;
    for (const character of [...source, '']) {
      if (done < times) {
        out += insert;
        done++;
      }
      out += character;
    }
    return string(out);
  }
  let out = source;
  if (limit < 0) out = source.split(needle).join(insert);
  else for (let i = 0; i < times; i++) out = out.replace(needle, insert);
  return string(out);
}

type Filter = (operand: Runtime, args: Runtime[], kwargs: Map<string, Runtime>) => Runtime;

const noDefault = (name: string, value: Runtime) =>
  new TemplateError(`${name} got invalid input '${pyStr(value)}' and no default was given`);

/** Home Assistant's filters, and Jinja's where the library lacks them or differs. */
const FILTERS: Record<string, Filter> = {
  float: (operand, [fallback], kwargs) => {
    const parsed = toFloat(operand);
    if (parsed !== undefined) return float(parsed);
    const given = fallback ?? kwargs.get('default');
    if (given) return given;
    throw noDefault('float', operand);
  },
  int: (operand, [fallback, base], kwargs) => {
    const parsed = toInt(operand, base && isNumber(base) ? (base.value as number) : 10);
    if (parsed !== undefined) return integer(parsed);
    const given = fallback ?? kwargs.get('default');
    if (given) return given;
    throw noDefault('int', operand);
  },
  round: (operand, [precision, method], kwargs) => {
    const value = toFloat(operand);
    if (value === undefined) {
      const given = kwargs.get('default');
      if (given) return given;
      throw noDefault('round', operand);
    }
    const digits = precision && isNumber(precision) ? (precision.value as number) : 0;
    const how = method && isString(method) ? (method.value as string) : 'common';
    const factor = 10 ** digits;
    const rounded =
      how === 'ceil'
        ? Math.ceil(value * factor) / factor
        : how === 'floor'
          ? Math.floor(value * factor) / factor
          : how === 'half'
            ? Math.round(value * 2) / 2
            : pyRound(value, digits);
    // Home Assistant's round gives a whole number when rounding to 0 digits.
    return digits === 0 ? integer(Math.trunc(rounded)) : float(rounded);
  },
  multiply: (operand, [factor], kwargs) => {
    const value = toFloat(operand);
    const by = factor ? toFloat(factor) : undefined;
    if (value === undefined || by === undefined) {
      const given = kwargs.get('default');
      if (given) return given;
      throw noDefault('multiply', operand);
    }
    return number(value * by);
  },
  is_defined: (operand) => {
    if (isUndefined(operand)) throw new TemplateError('value is undefined');
    return operand;
  },
  to_json: (operand) => string(JSON.stringify(toJs(operand))),
  from_json: (operand) => {
    if (!isString(operand)) throw new TemplateError('from_json takes text');
    try {
      return toRuntime(JSON.parse(operand.value as string));
    } catch {
      throw new TemplateError('from_json: not JSON');
    }
  },
  lower: (operand) => string(text(operand).toLowerCase()),
  upper: (operand) => string(text(operand).toUpperCase()),
  string: (operand) => string(text(operand)),
  bool: (operand, [fallback]) => {
    const raw = text(operand).trim().toLowerCase();
    if (['true', 'yes', 'on', 'enable', '1'].includes(raw)) return TRUE;
    if (['false', 'no', 'off', 'disable', '0'].includes(raw)) return FALSE;
    if (fallback) return fallback;
    throw noDefault('bool', operand);
  },
  timestamp_local: (operand, [fallback]) => {
    const value = toFloat(operand);
    if (value === undefined || !Number.isFinite(value)) {
      if (fallback) return fallback;
      throw noDefault('timestamp_local', operand);
    }
    return string(isoLocal(value * 1000));
  },
  timestamp_utc: (operand, [fallback]) => {
    const value = toFloat(operand);
    if (value === undefined || !Number.isFinite(value)) {
      if (fallback) return fallback;
      throw noDefault('timestamp_utc', operand);
    }
    return string(new Date(value * 1000).toISOString().replace('Z', '+00:00').replace('.000', ''));
  },
  unpack: (operand, [format, offset]) => {
    if (!isString(operand) || !format || !isString(format))
      throw new TemplateError('unpack takes bytes and a format');
    return number(
      unpack(
        operand.value as string,
        format.value as string,
        offset && isNumber(offset) ? (offset.value as number) : 0,
      ),
    );
  },
  join: (operand, [separator], kwargs) => {
    const items = isArray(operand)
      ? (operand.value as Runtime[]).map((item) => text(item))
      : isString(operand)
        ? [...(operand.value as string)]
        : undefined;
    if (!items) throw new TemplateError(`join takes a list, not ${operand.type}`);
    const between = separator ?? kwargs.get('d');
    const glue = between ? text(between) : '';
    const length = items.reduce((sum, item) => sum + item.length, 0) + glue.length * items.length;
    if (length > MAX_TEXT) throw new TemplateError('template result too large');
    return string(items.join(glue));
  },
  replace: (operand, args) => replaceBounded(string(text(operand)), args),
  abs: (operand) => {
    const value = toFloat(operand);
    if (value === undefined) throw new TemplateError('abs takes a number');
    return operand.type === 'IntegerValue' ? integer(Math.abs(value)) : float(Math.abs(value));
  },
  max: (operand) => extreme(operand, 1),
  min: (operand) => extreme(operand, -1),
};
FILTERS.tojson = (operand, args, kwargs) =>
  kwargs.size > 0 || args.length > 0
    ? (() => {
        throw new TemplateError('tojson options are not supported');
      })()
    : string(pyJson(operand));

function extreme(operand: Runtime, sign: 1 | -1): Runtime {
  if (!isArray(operand) || (operand.value as Runtime[]).length === 0)
    throw new TemplateError('max/min take a list');
  let best: Runtime | undefined;
  for (const item of operand.value as Runtime[]) {
    const value = toFloat(item);
    if (value === undefined) throw new TemplateError('max/min take numbers');
    if (!best || (value - (toFloat(best) as number)) * sign > 0) best = item;
  }
  return best as Runtime;
}

/** Jinja's tojson (Python's json.dumps: `{"a": 1, "b": [1, 2]}`). */
function pyJson(value: Runtime): string {
  switch (value.type) {
    case 'NullValue':
    case 'UndefinedValue':
      return 'null';
    case 'BooleanValue':
      return value.value ? 'true' : 'false';
    case 'FloatValue':
      return pyFloat(value.value as number);
    case 'IntegerValue':
      return String(value.value);
    case 'StringValue':
      return JSON.stringify(value.value);
    case 'ArrayValue':
    case 'TupleValue':
      return `[${(value.value as Runtime[]).map(pyJson).join(', ')}]`;
    case 'ObjectValue':
      return `{${[...(value.value as Map<string, Runtime>)].map(([k, v]) => `${JSON.stringify(k)}: ${pyJson(v)}`).join(', ')}}`;
    default:
      throw new TemplateError(`cannot serialise ${value.type}`);
  }
}

/** A runtime value as plain JSON data. */
export function toJs(value: Runtime): unknown {
  switch (value.type) {
    case 'NullValue':
    case 'UndefinedValue':
      return null;
    case 'ArrayValue':
    case 'TupleValue':
      return (value.value as Runtime[]).map(toJs);
    case 'ObjectValue':
      return Object.fromEntries([...(value.value as Map<string, Runtime>)].map(([k, v]) => [k, toJs(v)]));
    case 'FunctionValue':
      return null;
    default:
      return value.value;
  }
}

/** Functions every template may call. */
function setGlobals(env: Environment) {
  const fn = (name: string, body: (args: Runtime[]) => Runtime) => env.variables.set(name, func(body));
  env.variables.set('true', TRUE);
  env.variables.set('false', FALSE);
  env.variables.set('True', TRUE);
  env.variables.set('False', FALSE);
  env.variables.set('none', NONE);
  env.variables.set('None', NONE);
  fn('float', ([value, fallback]) =>
    value ? FILTERS.float!(value, fallback ? [fallback] : [], new Map()) : float(0),
  );
  fn('int', ([value, fallback]) =>
    value ? FILTERS.int!(value, fallback ? [fallback] : [], new Map()) : integer(0),
  );
  fn('bool', ([value, fallback]) => FILTERS.bool!(value ?? NOTHING, fallback ? [fallback] : [], new Map()));
  fn('max', (args) => extreme(args.length === 1 ? (args[0] as Runtime) : array(args), 1));
  fn('min', (args) => extreme(args.length === 1 ? (args[0] as Runtime) : array(args), -1));
  fn('now', () => timeValue(Date.now()));
  fn('utcnow', () => timeValue(Date.now()));
  fn('as_timestamp', ([value, fallback]) => {
    if (value && isObject(value)) {
      const stamp = (value.value as Map<string, Runtime>).get('__timestamp__');
      if (stamp) return stamp;
    }
    const numeric = value ? toFloat(value) : undefined;
    if (numeric !== undefined) return float(numeric);
    const parsed = value && isString(value) ? Date.parse(value.value as string) : Number.NaN;
    if (Number.isFinite(parsed)) return float(parsed / 1000);
    if (fallback) return fallback;
    throw noDefault('as_timestamp', value ?? NOTHING);
  });
  fn('iif', ([condition, ifTrue, ifFalse, ifNone]) => {
    if (!condition || condition.type === 'NullValue') return ifNone ?? ifFalse ?? FALSE;
    return condition.__bool__().value ? (ifTrue ?? TRUE) : (ifFalse ?? FALSE);
  });
  fn('range', ([start, stop, step]) => {
    const [from, to] = stop
      ? [toInt(start as Runtime) ?? 0, toInt(stop) ?? 0]
      : [0, toInt(start as Runtime) ?? 0];
    const by = step ? (toInt(step) ?? 1) : 1;
    if (by === 0) throw new TemplateError('range() step must not be zero');
    if (Math.ceil((to - from) / by) > MAX_ITEMS) throw new TemplateError('range too large');
    const out: Runtime[] = [];
    for (let i = from; by > 0 ? i < to : i > to; i += by) out.push(integer(i));
    return array(out);
  });
}

/** A value converted once for several templates (the same message feeds every entity on its topic). */
export class Prepared {
  constructor(readonly runtime: Runtime) {}
}

/** Converts a JavaScript value once, for several renders. */
export function prepare(value: unknown): Prepared {
  return new Prepared(toRuntime(value));
}

/**
 * Most real templates are a path into the message and a filter or two (`{{ value_json.temp |
 * float(0) }}`, `{{ value_json['ENERGY']['Power'] }}`): such a template (text, and parts made of a
 * variable, `.key` / `['key']` / `.0` and Hearth's own filters with literal arguments) is run
 * directly, as the interpreter would run it (its checks included), with a fraction of the work.
 * Whatever it does not follow the same way (a missing `.key`, which may be a method; a failing
 * filter; a value over the bounds) goes to the interpreter, which gives the answer or the error.
 */
type Access = { key: string; computed: boolean } | { index: number };
type Part =
  | { text: string }
  | { name: string; accesses: Access[]; filters: { apply: Filter; args: Runtime[] }[] };

const LITERALS = new Set(['StringLiteral', 'IntegerLiteral', 'FloatLiteral']);
const NO_KEYWORDS = new Map<string, Runtime>();

/** The template's parts when it can be run directly, else undefined. */
function directParts(program: Node): Part[] | undefined {
  const parts: Part[] = [];
  for (const statement of program.body as Node[]) {
    if (statement.type === 'StringLiteral') {
      parts.push({ text: statement.value as string });
      continue;
    }
    let node = statement;
    const filters: { apply: Filter; args: Runtime[] }[] = [];
    while (node.type === 'FilterExpression') {
      const filter = node.filter as Node;
      const call = filter.type === 'CallExpression' ? filter : undefined;
      const name = call ? (call.callee as Node) : filter;
      if (name.type !== 'Identifier' || !Object.hasOwn(FILTERS, name.value as string)) return undefined;
      const args: Runtime[] = [];
      for (const arg of (call?.args ?? []) as Node[]) {
        if (!LITERALS.has(arg.type)) return undefined;
        args.push(literal(arg));
      }
      filters.unshift({ apply: FILTERS[name.value as string] as Filter, args });
      node = node.operand as Node;
    }
    const accesses: Access[] = [];
    while (node.type === 'MemberExpression') {
      const property = node.property as Node;
      if (node.computed && property.type === 'StringLiteral')
        accesses.unshift({ key: property.value as string, computed: true });
      else if (!node.computed && property.type === 'Identifier')
        accesses.unshift({ key: property.value as string, computed: false });
      else if (!node.computed && property.type === 'IntegerLiteral')
        accesses.unshift({ index: property.value as number });
      else return undefined;
      node = node.object as Node;
    }
    if (node.type !== 'Identifier') return undefined;
    parts.push({ name: node.value as string, accesses, filters });
  }
  return parts;
}

/** A value the interpreter would refuse as it made it (evaluate()'s bounds). */
const overBounds = (value: Runtime) =>
  (isString(value) && (value.value as string).length > MAX_TEXT) ||
  (isArray(value) && (value.value as Runtime[]).length > MAX_ITEMS) ||
  (isObject(value) && (value.value as Map<string, Runtime>).size > MAX_ITEMS);

/** One access as evaluateMemberExpression makes it; undefined: the interpreter's to make. */
function access(object: Runtime, step: Access): Runtime | undefined {
  if (isUndefined(object)) return NOTHING;
  if ('index' in step)
    return isArray(object) ? ((object.value as Runtime[]).at(step.index) ?? NOTHING) : undefined;
  if (!isObject(object)) return undefined;
  const found = (object.value as Map<string, Runtime>).get(step.key);
  return found ?? (step.computed ? NOTHING : undefined);
}

/** The printed text of a directly run template, or undefined when the interpreter has to run it. */
function runDirect(parts: Part[], variables: Record<string, unknown>): string | undefined {
  let out = '';
  for (const part of parts) {
    if ('text' in part) {
      out += part.text;
      continue;
    }
    if (!Object.hasOwn(variables, part.name)) return undefined;
    const given = variables[part.name];
    let value: Runtime | undefined = given instanceof Prepared ? given.runtime : toRuntime(given);
    if (overBounds(value)) return undefined;
    for (const step of part.accesses) {
      value = access(value, step);
      if (value === undefined || overBounds(value)) return undefined;
    }
    for (const { apply, args } of part.filters) {
      try {
        value = apply(value, args, NO_KEYWORDS);
      } catch {
        return undefined;
      }
      if (overBounds(value)) return undefined;
    }
    out += pyStr(value);
    if (out.length > MAX_TEXT) return undefined;
  }
  return out.trim();
}

const globals = new Environment();
setGlobals(globals);

/** A parsed template, or why it can't be used. */
interface Compiled {
  program?: unknown;
  /** Its parts, when it can be run without the interpreter. */
  direct?: Part[];
  error?: string;
  timeouts: number;
  /** Used since the cache last looked for one to drop. */
  used: boolean;
}

/**
 * Parses and runs templates. A template is parsed once (when its config is read) and kept by its
 * text, the most recently used few thousand; every render goes through one environment and one
 * interpreter, emptied and reset each time (building them took longer than most templates run).
 */
export class TemplateEngine {
  private readonly cache = new Map<string, Compiled>();
  private readonly env = new Environment(globals);
  private readonly interpreter = new BoundedInterpreter(this.env);
  private rendering = false;

  /** `direct: false`: every template through the interpreter (what the direct runs are checked against). */
  constructor(private readonly options: { timeoutMs?: number; cacheSize?: number; direct?: boolean } = {}) {}

  /** Why a template can't be used (too long, not Jinja), or undefined when it can. */
  check(source: string): string | undefined {
    return this.compile(source).error;
  }

  /**
   * Renders `source` with `variables` (JavaScript values, or values prepared once for several
   * renders; `value` as text); the result is the printed text, stripped as Home Assistant strips it.
   */
  render(source: string, variables: Record<string, unknown>): TemplateResult {
    const compiled = this.compile(source);
    if (compiled.error) return { ok: false, error: compiled.error };
    if (compiled.timeouts >= TIMEOUTS_BEFORE_DISABLED)
      return { ok: false, error: 'template disabled: it took too long repeatedly' };
    if (compiled.direct) {
      const text = runDirect(compiled.direct, variables);
      if (text !== undefined) return { ok: true, text };
    }
    // A render inside a render (none today) gets its own environment, not this one's emptied.
    const nested = this.rendering;
    const env = nested ? new Environment(globals) : this.env;
    const interpreter = nested ? new BoundedInterpreter(env) : this.interpreter;
    this.rendering = true;
    try {
      for (const name in variables) {
        const value = variables[name];
        env.variables.set(name, value instanceof Prepared ? value.runtime : toRuntime(value));
      }
      interpreter.reset(performance.now() + (this.options.timeoutMs ?? TEMPLATE_TIMEOUT_MS));
      const result = interpreter.evaluate(compiled.program as Node, env);
      return { ok: true, text: pyStr(result).trim() };
    } catch (error) {
      if (error instanceof TemplateTimeout) compiled.timeouts++;
      const message = error instanceof Error ? error.message : String(error);
      // A stack overflow (deep recursion) is a RangeError: the template failed, nothing more.
      return { ok: false, error: message.slice(0, 300) };
    } finally {
      // What the template set and the message's values go with it.
      if (!nested) {
        env.variables.clear();
        this.rendering = false;
      }
    }
  }

  private compile(source: string): Compiled {
    let compiled = this.cache.get(source);
    if (compiled) {
      compiled.used = true;
      return compiled;
    }
    compiled = { timeouts: 0, used: true };
    if (source.length > MAX_TEMPLATE_SOURCE)
      compiled.error = `template longer than ${MAX_TEMPLATE_SOURCE} characters`;
    else {
      try {
        compiled.program = parse(tokenize(source, { lstrip_blocks: false, trim_blocks: false }));
        if (this.options.direct !== false) compiled.direct = directParts(compiled.program as Node);
      } catch (error) {
        compiled.error = `template error: ${error instanceof Error ? error.message : String(error)}`.slice(
          0,
          300,
        );
      }
    }
    this.cache.set(source, compiled);
    if (this.cache.size > (this.options.cacheSize ?? 5000)) this.dropOne();
    return compiled;
  }

  /**
   * Drops the oldest template not used since it was last looked at; those used go to the back
   * (a second chance: nearly least-recently-used, without moving an entry on each render).
   */
  private dropOne() {
    for (const [source, compiled] of this.cache) {
      this.cache.delete(source);
      if (!compiled.used) return;
      compiled.used = false;
      this.cache.set(source, compiled);
    }
  }
}
