import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { useSearch, type SearchOption } from './use-search';
import { optionId, SearchResults } from './SearchResults';
import './search.css';

const LIST_ID = 'search-results';

/** Typing somewhere else (a field, an editor): `/` is then a character, not the search shortcut. */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * The top bar's search box: `/` or Ctrl+K (⌘K) focuses it; the results of every area appear
 * below it, grouped; ↑/↓ move through them, Enter opens one, Escape closes the list.
 */
export function SearchBox() {
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const search = useSearch(text);

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      const ctrlK = (e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k';
      if (!ctrlK && !(e.key === '/' && !e.ctrlKey && !e.metaKey && !e.altKey && !typingIn(e.target))) return;
      e.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // New results: nothing chosen yet (Enter then opens the first).
  useEffect(() => setActive(-1), [search.q]);

  const openOption = (o: SearchOption) => {
    setOpen(false);
    setText('');
    input.current?.blur();
    navigate(o.path);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const count = search.options.length;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
      if (count === 0) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => (a === -1 ? (step === 1 ? 0 : count - 1) : (a + step + count) % count));
    } else if (e.key === 'Enter') {
      const chosen = search.options[active === -1 ? 0 : active];
      if (chosen) {
        e.preventDefault();
        openOption(chosen);
      }
    } else if (e.key === 'Escape') {
      // Not the search field's own Escape, which would clear the text while closing the list.
      e.preventDefault();
      if (open && text) setOpen(false);
      else {
        setText('');
        input.current?.blur();
      }
    }
  };

  const showList = open && search.enabled;
  const activeOption = search.options[active];
  const status = !search.enabled ? '' : search.error ? `Search failed: ${search.error.message}` : search.settled ? (search.options.length ? `${search.options.length} results` : `Nothing found for “${search.q}”`) : '';
  return (
    <div className="search-box">
      <label htmlFor="top-search" className="visually-hidden">
        Search
      </label>
      <input
        id="top-search"
        ref={input}
        className="input search-input"
        type="search"
        role="combobox"
        autoComplete="off"
        placeholder="Search  ( / )"
        aria-keyshortcuts="/ Control+K Meta+K"
        aria-autocomplete="list"
        aria-expanded={showList && search.options.length > 0}
        aria-controls={LIST_ID}
        aria-activedescendant={showList && activeOption ? optionId(activeOption) : undefined}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {showList && search.options.length > 0 && <SearchResults id={LIST_ID} groups={search.groups} options={search.options} active={active} onOpen={openOption} onHover={setActive} />}
      {showList && search.options.length === 0 && status && <div className="search-results search-empty">{status}</div>}
      <div className="visually-hidden" role="status" aria-live="polite">
        {showList ? status : ''}
      </div>
    </div>
  );
}
