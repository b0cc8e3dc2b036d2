import { AREAS, type SearchGroup, type SearchOption } from './use-search';

export const optionId = (o: SearchOption) => `search-option-${o.index}`;

interface Props {
  id: string;
  groups: SearchGroup[];
  options: SearchOption[];
  active: number;
  onOpen: (o: SearchOption) => void;
  onHover: (index: number) => void;
}

/** The results, grouped by area: a listbox whose options the search box moves through (aria-activedescendant). */
export function SearchResults({ id, groups, options, active, onOpen, onHover }: Props) {
  const shown = groups.filter((g) => g.hits.length > 0);
  return (
    <div id={id} role="listbox" aria-label="Search results" className="search-results">
      {shown.map((g) => (
        <div key={g.area} role="group" aria-labelledby={`search-group-${g.area}`} className="search-group">
          <div id={`search-group-${g.area}`} className="search-group-title" role="presentation">
            {AREAS[g.area].label}
            {g.more && <span className="search-more"> · more in {AREAS[g.area].label.toLowerCase()}</span>}
          </div>
          {options
            .filter((o) => o.area === g.area)
            .map((o) => (
              <div
                key={o.key}
                id={optionId(o)}
                role="option"
                aria-selected={o.index === active}
                className={`search-option${o.index === active ? ' search-option-active' : ''}`}
                // Keeps the focus in the input, so the keyboard still drives the list.
                onMouseDown={(e) => e.preventDefault()}
                onMouseMove={() => onHover(o.index)}
                onClick={() => onOpen(o)}
              >
                <span className="search-option-title">{o.hit.title}</span>
                {o.hit.detail && <span className="search-option-detail">{o.hit.detail}</span>}
                <span className="search-snippet">
                  {o.hit.snippet.map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
                </span>
              </div>
            ))}
        </div>
      ))}
    </div>
  );
}
