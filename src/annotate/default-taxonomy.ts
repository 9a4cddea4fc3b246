/**
 * The default taxonomy of execution-prediction errors (version 1), grounded in the fields of
 * a state (event, src, locals, arg; docs/semantics.md §2, §6) and in what the neural-debugger
 * paper reports (§8): the event kind and source line are predicted reliably, most errors are
 * in locals and return values, inverse predictions are often right by execution while wrong
 * by exact match. Groups run from "the text cannot be read" to "the truth itself is doubtful".
 *
 * Every example is a real case: the program, the state before the action (all its locals),
 * the action, what a model wrote and the true target. test/annotate/default-taxonomy.test.ts
 * runs the pre-label rules over each example and expects its label among the suggestions.
 */
import type { Taxonomy } from './taxonomy.js';

const COUNT = 'def count(s, t):\n    n = 0\n    for c in s:\n        n += int(c == t)\n    return n\n';

export const DEFAULT_TAXONOMY: Taxonomy = {
  version: 1,
  name: 'Execution-prediction errors',
  groups: [
    {
      id: 'format',
      name: 'Format',
      description: 'The completion is not a well-formed state: it cannot be read, stops early, or loops.',
    },
    {
      id: 'control',
      name: 'Control flow',
      description: 'The model is at the wrong place: wrong kind of event or wrong line.',
    },
    { id: 'data', name: 'Data', description: 'Right place, wrong locals: values, types, names, in-place changes.' },
    { id: 'return', name: 'Return and exceptions', description: 'The value a frame returns, or whether it raises.' },
    { id: 'inverse', name: 'Inverse', description: 'Inferred earlier states and inputs, judged by running them.' },
    { id: 'truth', name: 'Ground truth', description: 'The recorded truth itself cannot be matched exactly.' },
    { id: 'other', name: 'Other', description: 'Anything the other groups do not cover; say what in the note.' },
  ],
  labels: [
    {
      id: 'format.unparseable',
      group: 'format',
      key: 1,
      name: 'Unparseable',
      description:
        'The completion cannot be read as a state or exit token (bad token, invalid JSON, fields out of order). Counted as wrong on every field.',
      example: {
        code: COUNT,
        before:
          '<|line_sep|><|arg_sep|>{"s": "\'berry\'", "t": "\'r\'", "n": "0", "c": "\'r\'"}<|src_sep|>        n += int(c == t)',
        action: 'step_into',
        predicted: '<|line_sep|><|arg_sep|>{"..": "..", n: 1}<|src_sep|>    for c in s:',
        truth: '<|line_sep|><|arg_sep|>{"..": "..", "n": "1"}<|src_sep|>    for c in s:',
        note: 'The key n is not quoted: the locals are not JSON.',
      },
    },
    {
      id: 'format.truncated',
      group: 'format',
      key: 2,
      name: 'Truncated',
      description:
        'The completion stops before the state is complete: cut at the token limit, or ended inside a JSON value.',
      example: {
        code: COUNT,
        before:
          '<|line_sep|><|arg_sep|>{"s": "\'berry\'", "t": "\'r\'", "n": "0", "c": "\'r\'"}<|src_sep|>        n += int(c == t)',
        action: 'step_into',
        predicted: '<|line_sep|><|arg_sep|>{"..": "..", "n": "1',
        truth: '<|line_sep|><|arg_sep|>{"..": "..", "n": "1"}<|src_sep|>    for c in s:',
        note: 'The text ends inside the string "1": no closing quote, brace or src.',
      },
    },
    {
      id: 'format.repeated',
      group: 'format',
      key: 3,
      name: 'Repeated',
      description:
        'The model loops: the same state text is written again and again, or the state before the action is copied unchanged.',
      example: {
        code: COUNT,
        before:
          '<|line_sep|><|arg_sep|>{"s": "\'berry\'", "t": "\'r\'", "n": "1", "c": "\'r\'"}<|src_sep|>    for c in s:',
        action: 'step_into',
        predicted:
          '<|line_sep|><|arg_sep|>{"..": "..", "c": "\'r\'"}<|src_sep|>        n += int(c == t)<|line_sep|><|arg_sep|>{"..": "..", "c": "\'r\'"}<|src_sep|>        n += int(c == t)<|line_sep|><|arg_sep|>{"..": "..", "c": "\'r\'"}<|src_sep|>        n += int(c == t)',
        truth: '<|line_sep|><|arg_sep|>{"..": ".."}<|src_sep|>        n += int(c == t)',
        note: 'One state, written three times without separators.',
      },
    },
    {
      id: 'format.delta',
      group: 'format',
      key: 4,
      name: 'Not a delta',
      description:
        'The locals are not written as the delta of docs/semantics.md §6: unchanged names repeated, or the ".." marker missing or extra, while every value is right.',
      example: {
        code: COUNT,
        before: '<|line_sep|><|arg_sep|>{"s": "\'berry\'", "t": "\'r\'"}<|src_sep|>    n = 0',
        action: 'step_into',
        predicted: '<|line_sep|><|arg_sep|>{"s": "\'berry\'", "t": "\'r\'", "n": "0"}<|src_sep|>    for c in s:',
        truth: '<|line_sep|><|arg_sep|>{"..": "..", "n": "0"}<|src_sep|>    for c in s:',
        note: 's and t did not change, so the truth leaves them out.',
      },
    },
    {
      id: 'control.wrong_event',
      group: 'control',
      key: 1,
      name: 'Wrong event kind',
      description:
        'A call, line, return or exit where the truth has another kind (not an exception mix-up, which is in Return and exceptions).',
      example: {
        code: COUNT,
        before: '<|call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'berry\'", "t": "\'r\'"}',
        action: 'step_return',
        predicted: '<|exit_normal|>',
        truth: '<|return_sep|><|src_sep|>    return n<|arg_sep|>"2"',
        note: 'step_return from the call stops at the return of count; the model left the scope.',
      },
    },
    {
      id: 'control.wrong_line',
      group: 'control',
      key: 2,
      name: 'Wrong line',
      description:
        'Right event kind, wrong source line, for another reason than a branch or a loop: a line of another function, a line skipped, a line that does not exist.',
      example: {
        code: 'def sq(x):\n    return x * x\n\ndef f(xs):\n    total = 0\n    for x in xs:\n        total += sq(x)\n    return total\n',
        before: '<|call_sep|><|src_sep|>def sq(x):<|arg_sep|>{"x": "2"}',
        action: 'step_return',
        predicted: '<|return_sep|><|src_sep|>    return total<|arg_sep|>"4"',
        truth: '<|return_sep|><|src_sep|>    return x * x<|arg_sep|>"4"',
        note: 'The value is right but the return is placed in the caller.',
      },
    },
    {
      id: 'control.branch',
      group: 'control',
      key: 3,
      name: 'Branch taken wrongly',
      description: 'The predicted line is on the other side of an if/elif/else: the condition was evaluated wrongly.',
      example: {
        code: 'def sign(x):\n    if x > 0:\n        return 1\n    elif x < 0:\n        return -1\n    return 0\n',
        before: '<|line_sep|><|arg_sep|>{"x": "-3"}<|src_sep|>    if x > 0:',
        action: 'step_into',
        predicted: '<|line_sep|><|arg_sep|>{"..": ".."}<|src_sep|>        return 1',
        truth: '<|line_sep|><|arg_sep|>{"..": ".."}<|src_sep|>    elif x < 0:',
        note: 'x > 0 is false for -3.',
      },
    },
    {
      id: 'control.loop_iteration',
      group: 'control',
      key: 4,
      name: 'Loop iteration count off',
      description:
        'The model runs a loop once more or once less than the program: it stays in a loop that has ended, leaves one that goes on, or predicts the state of another iteration.',
      example: {
        code: COUNT,
        before:
          '<|line_sep|><|arg_sep|>{"s": "\'berry\'", "t": "\'r\'", "n": "2", "c": "\'y\'"}<|src_sep|>    for c in s:',
        action: 'step_into',
        predicted: '<|line_sep|><|arg_sep|>{"..": "..", "c": "\'y\'"}<|src_sep|>        n += int(c == t)',
        truth: '<|line_sep|><|arg_sep|>{"..": ".."}<|src_sep|>    return n',
        note: "'y' was the last character: the loop is over.",
      },
    },
    {
      id: 'data.wrong_value',
      group: 'data',
      key: 1,
      name: 'Wrong value',
      description: 'A local has the right name and type but the wrong value (the most common error the paper reports).',
      example: {
        code: COUNT,
        before:
          '<|line_sep|><|arg_sep|>{"s": "\'berry\'", "t": "\'r\'", "n": "0", "c": "\'r\'"}<|src_sep|>        n += int(c == t)',
        action: 'step_into',
        predicted: '<|line_sep|><|arg_sep|>{"..": "..", "n": "2"}<|src_sep|>    for c in s:',
        truth: '<|line_sep|><|arg_sep|>{"..": "..", "n": "1"}<|src_sep|>    for c in s:',
      },
    },
    {
      id: 'data.wrong_type',
      group: 'data',
      key: 2,
      name: 'Wrong type',
      description: "A local's repr is of another type than the truth: '1' for 1, a list for a tuple, None for a value.",
      example: {
        code: 'def f(x):\n    y = str(x)\n    return y\n',
        before: '<|line_sep|><|arg_sep|>{"x": "1"}<|src_sep|>    y = str(x)',
        action: 'step_into',
        predicted: '<|line_sep|><|arg_sep|>{"..": "..", "y": "1"}<|src_sep|>    return y',
        truth: '<|line_sep|><|arg_sep|>{"..": "..", "y": "\'1\'"}<|src_sep|>    return y',
        note: "str(1) is the string '1'.",
      },
    },
    {
      id: 'data.missing_local',
      group: 'data',
      key: 3,
      name: 'Missing local',
      description:
        'A name the truth shows as new (just bound, or an argument of a call) is absent from the prediction.',
      example: {
        code: COUNT,
        before: '<|line_sep|><|arg_sep|>{"s": "\'berry\'", "t": "\'r\'"}<|src_sep|>    n = 0',
        action: 'step_into',
        predicted: '<|line_sep|><|arg_sep|>{"..": ".."}<|src_sep|>    for c in s:',
        truth: '<|line_sep|><|arg_sep|>{"..": "..", "n": "0"}<|src_sep|>    for c in s:',
      },
    },
    {
      id: 'data.invented_local',
      group: 'data',
      key: 4,
      name: 'Invented local',
      description: 'The prediction shows a name the frame does not have at that point (not yet bound, or never).',
      example: {
        code: COUNT,
        before: '<|line_sep|><|arg_sep|>{"s": "\'berry\'", "t": "\'r\'"}<|src_sep|>    n = 0',
        action: 'step_into',
        predicted: '<|line_sep|><|arg_sep|>{"..": "..", "n": "0", "c": "\'b\'"}<|src_sep|>    for c in s:',
        truth: '<|line_sep|><|arg_sep|>{"..": "..", "n": "0"}<|src_sep|>    for c in s:',
        note: 'A line state shows the locals before the line runs: c is bound by the for line itself.',
      },
    },
    {
      id: 'data.mutation_missed',
      group: 'data',
      key: 5,
      name: 'Aliasing or mutation missed',
      description:
        'An object changed in place (append, item assignment) or through another name, and the prediction keeps its old value.',
      example: {
        code: 'def f(nums):\n    out = nums\n    out.append(0)\n    return nums\n',
        before: '<|line_sep|><|arg_sep|>{"nums": "[1, 2]", "out": "[1, 2]"}<|src_sep|>    out.append(0)',
        action: 'step_into',
        predicted: '<|line_sep|><|arg_sep|>{"..": "..", "out": "[1, 2, 0]"}<|src_sep|>    return nums',
        truth: '<|line_sep|><|arg_sep|>{"nums": "[1, 2, 0]", "out": "[1, 2, 0]"}<|src_sep|>    return nums',
        note: 'out and nums are one list.',
      },
    },
    {
      id: 'return.wrong_value',
      group: 'return',
      key: 1,
      name: 'Wrong return value',
      description: 'Right return, wrong value returned (output prediction as CRUXEval asks it).',
      example: {
        code: COUNT,
        before: '<|call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'berry\'", "t": "\'r\'"}',
        action: 'step_return',
        predicted: '<|return_sep|><|src_sep|>    return n<|arg_sep|>"1"',
        truth: '<|return_sep|><|src_sep|>    return n<|arg_sep|>"2"',
      },
    },
    {
      id: 'return.missed_exception',
      group: 'return',
      key: 2,
      name: 'Missed exception',
      description:
        'The program raises (an exception event, a return left by an exception, exit_error) and the model goes on as if nothing happened.',
      example: {
        code: 'def f(d, k):\n    v = d[k]\n    return v\n',
        before: '<|line_sep|><|arg_sep|>{"d": "{\'a\': 1}", "k": "\'b\'"}<|src_sep|>    v = d[k]',
        action: 'step_into',
        predicted: '<|line_sep|><|arg_sep|>{"..": "..", "v": "None"}<|src_sep|>    return v',
        truth: '<|exception_sep|><|src_sep|>    v = d[k]<|arg_sep|>"KeyError(\'b\')"',
      },
    },
    {
      id: 'return.invented_exception',
      group: 'return',
      key: 3,
      name: 'Invented exception',
      description: 'The model predicts an exception (or exit_error) where the program runs on normally.',
      example: {
        code: 'def f(xs):\n    return xs[-1]\n',
        before: '<|line_sep|><|arg_sep|>{"xs": "[3]"}<|src_sep|>    return xs[-1]',
        action: 'step_into',
        predicted: '<|exception_sep|><|src_sep|>    return xs[-1]<|arg_sep|>"IndexError(\'list index out of range\')"',
        truth: '<|return_sep|><|src_sep|>    return xs[-1]<|arg_sep|>"3"',
      },
    },
    {
      id: 'inverse.valid_alternative',
      group: 'inverse',
      key: 1,
      name: 'Valid alternative input',
      description:
        'Wrong by exact match, right by execution: running the function on the predicted arguments gives the true result. Not a model error; exact match underestimates inverse accuracy (docs/semantics.md §8).',
      example: {
        code: COUNT,
        before: '<|inv_return_sep|><|src_sep|>    return n<|arg_sep|>"2"',
        action: 'inv_step_call',
        predicted: '<|inv_call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'rr\'", "t": "\'r\'"}',
        truth: '<|inv_call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'berry\'", "t": "\'r\'"}',
        note: 'count("rr", "r") returns 2 as well: confirmed by execution.',
      },
    },
    {
      id: 'inverse.invalid_input',
      group: 'inverse',
      key: 2,
      name: 'Invalid input',
      description:
        'The predicted earlier state or arguments do not lead to the later state: running them gives another result or fails.',
      example: {
        code: COUNT,
        before: '<|inv_return_sep|><|src_sep|>    return n<|arg_sep|>"2"',
        action: 'inv_step_call',
        predicted: '<|inv_call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'rrr\'", "t": "\'r\'"}',
        truth: '<|inv_call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'berry\'", "t": "\'r\'"}',
        note: 'count("rrr", "r") returns 3, not 2.',
      },
    },
    {
      id: 'truth.nondeterminism',
      group: 'truth',
      key: 1,
      name: 'Nondeterminism',
      description:
        'The true value depends on something the program text does not fix: the order of a set or of a dict built from one (hash seed), an address, time, randomness. The prediction may be as right as the truth.',
      example: {
        code: 'def f(words):\n    seen = set(words)\n    return seen\n',
        before: '<|call_sep|><|src_sep|>def f(words):<|arg_sep|>{"words": "[\'a\', \'b\']"}',
        action: 'step_return',
        predicted: "<|return_sep|><|src_sep|>    return seen<|arg_sep|>\"{'a', 'b'}\"",
        truth: "<|return_sep|><|src_sep|>    return seen<|arg_sep|>\"{'b', 'a'}\"",
        note: 'The same set; its order depends on PYTHONHASHSEED.',
      },
    },
    {
      id: 'truth.value_cut',
      group: 'truth',
      key: 2,
      name: 'Value cut by the recorder',
      description:
        'The true repr was longer than the recorder keeps and ends with …<cut N chars>: no prediction can match it exactly.',
      example: {
        code: 'def f(n):\n    xs = list(range(n))\n    return xs\n',
        before: '<|call_sep|><|src_sep|>def f(n):<|arg_sep|>{"n": "5000"}',
        action: 'step_return',
        predicted:
          '<|return_sep|><|src_sep|>    return xs<|arg_sep|>"[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]"',
        truth:
          '<|return_sep|><|src_sep|>    return xs<|arg_sep|>"[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 2…<cut 28824 chars>"',
      },
    },
    {
      id: 'other.other',
      group: 'other',
      key: 1,
      name: 'Other',
      description: 'None of the above; describe the failure in the note.',
      example: {
        code: 'def f(pairs):\n    d = dict(pairs)\n    return d\n',
        before: '<|call_sep|><|src_sep|>def f(pairs):<|arg_sep|>{"pairs": "[(\'b\', 2), (\'a\', 1)]"}',
        action: 'step_return',
        predicted: "<|return_sep|><|src_sep|>    return d<|arg_sep|>\"{'a': 1, 'b': 2}\"",
        truth: "<|return_sep|><|src_sep|>    return d<|arg_sep|>\"{'b': 2, 'a': 1}\"",
        note: 'Equal dicts (== holds) printed in another key order than insertion: wrong by exact match only.',
      },
    },
  ],
};
