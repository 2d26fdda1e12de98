'use client';
import { autocompletion, closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { bracketMatching, defaultHighlightStyle, foldGutter, foldKeymap, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, lintKeymap, linter, type Diagnostic } from '@codemirror/lint';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { Compartment, EditorState, StateEffect } from '@codemirror/state';
import { oneDark } from '@codemirror/theme-one-dark';
import { EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';

/** Dispatched to re-run the linter without an edit. */
const revalidate = StateEffect.define<null>();

type JsonEditorProps = {
  /** The document; replaced in the editor only when `docKey` changes (opening another stub). */
  initialText: string;
  docKey: string;
  onChange: (text: string) => void;
  /** Extra problems (e.g. the stub schema) marked in the text besides JSON syntax errors. */
  validate?: (text: string) => Array<{ from: number; to: number; message: string }>;
  label: string;
  /** Change it to re-run `validate` without an edit (e.g. after the engine refused the text). */
  revalidateKey?: unknown;
};

/**
 * CodeMirror 6, bundled with the app (no CDN): JSON syntax colour, bracket matching and closing, folding,
 * search, undo, and lint markers for JSON syntax and schema errors. Tab indents; Esc then Tab leaves.
 */
export function JsonEditor({ initialText, docKey, onChange, validate, label, revalidateKey }: JsonEditorProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const themeRef = useRef(new Compartment());
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const validateRef = useRef(validate);
  validateRef.current = validate;

  useEffect(() => {
    if (!hostRef.current) return;
    const schemaLinter = linter((view): Diagnostic[] => {
      const text = view.state.doc.toString();
      const syntax = jsonParseLinter()(view);
      if (syntax.length || !validateRef.current) return syntax;
      return validateRef.current(text).map((p) => ({ from: Math.min(p.from, text.length), to: Math.min(p.to, text.length), severity: 'error', message: p.message }));
    }, { delay: 300, needsRefresh: (update) => update.transactions.some((tr) => tr.effects.some((effect) => effect.is(revalidate))) });
    const isDark = document.documentElement.dataset.theme === 'dark';
    const view = new EditorView({
      parent: hostRef.current,
      state: EditorState.create({
        doc: initialText,
        extensions: [
          lineNumbers(), highlightActiveLineGutter(), foldGutter(), history(), indentOnInput(), bracketMatching(), closeBrackets(),
          autocompletion(), highlightActiveLine(), highlightSelectionMatches(), syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          json(), schemaLinter, lintGutter(),
          keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...foldKeymap, ...lintKeymap, indentWithTab]),
          EditorView.contentAttributes.of({ 'aria-label': label }),
          themeRef.current.of(isDark ? oneDark : []),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    viewRef.current = view;
    const observer = new MutationObserver(() => {
      view.dispatch({ effects: themeRef.current.reconfigure(document.documentElement.dataset.theme === 'dark' ? oneDark : []) });
    });
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => {
      observer.disconnect();
      view.destroy();
      viewRef.current = null;
    };
    // the editor is created once; documents are swapped below
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- deliberate: runs on the key only

  useEffect(() => {
    const view = viewRef.current;
    if (!view) return;
    const current = view.state.doc.toString();
    if (current !== initialText) view.dispatch({ changes: { from: 0, to: current.length, insert: initialText } });
  }, [docKey]); // eslint-disable-line react-hooks/exhaustive-deps -- deliberate: runs on the key only

  useEffect(() => {
    if (viewRef.current && revalidateKey !== undefined) viewRef.current.dispatch({ effects: revalidate.of(null) });
  }, [revalidateKey]);

  return <div className="editor-frame" ref={hostRef} data-testid="json-editor" />;
}
