// The back-office list pieces (use-list-controls, SearchInput, SortableTh, TableStateRows, LoadErrorAlert,
// ListResults) on their own; the list pages' own tests cover them in place.
import { MantineProvider, Table } from '@mantine/core';
import { act, fireEvent, render, renderHook, screen } from '@testing-library/react';
import type { UseQueryResult } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ListPagination } from './ListPagination';
import { ListResults } from './ListResults';
import { ListTable } from './ListTable';
import { LoadErrorAlert } from './LoadErrorAlert';
import { RecordsSection } from './RecordsSection';
import { SearchInput } from './SearchInput';
import { SortableTh } from './SortableTh';
import { TableStateRows } from './TableStateRows';
import { listPageCount, useListControls } from './use-list-controls';

const wrap = (ui: React.ReactNode) => render(<MantineProvider>{ui}</MantineProvider>);
const inTable = (rows: React.ReactNode) => (
  <Table>
    <Table.Tbody>{rows}</Table.Tbody>
  </Table>
);

afterEach(() => {
  vi.useRealTimers();
});

describe('useListControls', () => {
  it('debounces and trims the search by 500 ms, and starts again at page 1 when it changes', async () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useListControls(10));
    act(() => result.current.setPage(3));
    act(() => result.current.setSearch('  luis '));
    expect(result.current.search).toBe('  luis ');
    expect(result.current.query).toBe('');
    // Still the page being read until the query itself changes (no page 1 of the old query is fetched).
    expect(result.current.page).toBe(3);
    await act(() => vi.advanceTimersByTimeAsync(499));
    expect(result.current.query).toBe('');
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(result.current.query).toBe('luis');
    expect(result.current.page).toBe(1);
  });

  it('starts again at page 1 when another filter changes, compared by value', () => {
    let filters: unknown = { sort: 'name', direction: 'asc' };
    const { result, rerender } = renderHook(() => useListControls(10, filters));
    act(() => result.current.setPage(4));
    filters = { sort: 'name', direction: 'asc' };
    rerender();
    expect(result.current.page).toBe(4);
    filters = { sort: 'name', direction: 'desc' };
    rerender();
    expect(result.current.page).toBe(1);
  });

  it('counts pages: at least one, a partial page counts', () => {
    expect(listPageCount(0, 12)).toBe(1);
    expect(listPageCount(12, 12)).toBe(1);
    expect(listPageCount(13, 12)).toBe(2);
    const { result } = renderHook(() => useListControls(50));
    expect(result.current.pageCount(undefined)).toBe(1);
    expect(result.current.pageCount(101)).toBe(3);
  });
});

describe('list pieces', () => {
  it('SearchInput reports the text typed', () => {
    const onChange = vi.fn();
    wrap(<SearchInput label="Search" value="" onChange={onChange} />);
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'ana' } });
    expect(onChange).toHaveBeenCalledWith('ana');
  });

  it('SortableTh says how the column sorts and asks to sort by it', () => {
    const onSort = vi.fn();
    wrap(
      <Table>
        <Table.Thead>
          <Table.Tr>
            <SortableTh label="Name" active direction="desc" onSort={onSort} data-testid="sort-name" />
            <SortableTh label="Email" active={false} direction="desc" onSort={() => {}} />
          </Table.Tr>
        </Table.Thead>
      </Table>,
    );
    expect(screen.getByTestId('sort-name').closest('th')).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByText('Email').closest('th')).toHaveAttribute('aria-sort', 'none');
    fireEvent.click(screen.getByTestId('sort-name'));
    expect(onSort).toHaveBeenCalledTimes(1);
  });

  it('TableStateRows: skeleton rows while pending, one line when empty, nothing otherwise', () => {
    const { rerender } = wrap(inTable(<TableStateRows pending empty={false} columns={3} skeletonRows={5} emptyText="No records found" />));
    expect(screen.getAllByRole('row')).toHaveLength(5);
    expect(screen.getAllByRole('cell')[0]).toHaveAttribute('colspan', '3');
    rerender(<MantineProvider>{inTable(<TableStateRows pending={false} empty columns={3} emptyText="No records found" emptyTestId="empty" />)}</MantineProvider>);
    expect(screen.getByTestId('empty')).toHaveTextContent('No records found');
    rerender(<MantineProvider>{inTable(<TableStateRows pending={false} empty={false} columns={3} emptyText="No records found" />)}</MantineProvider>);
    expect(screen.queryAllByRole('row')).toHaveLength(0);
  });

  it('LoadErrorAlert: title, words and a retry that retries', () => {
    const onRetry = vi.fn();
    wrap(<LoadErrorAlert title="Could not load" text="Server down" onRetry={onRetry} retryLabel="Try again" />);
    expect(screen.getByRole('alert')).toHaveTextContent('Could not load');
    expect(screen.getByRole('alert')).toHaveTextContent('Server down');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('LoadErrorAlert: the words alone when there is no retry', () => {
    wrap(<LoadErrorAlert text="Server down" data-testid="failed" />);
    expect(screen.getByTestId('failed')).toHaveTextContent('Server down');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('ListResults: loading, then failure, empty or the rows', () => {
    const show = (list: Partial<UseQueryResult<string[]>>) =>
      render(
        <ListResults list={list as UseQueryResult<string[]>} isEmpty={(rows) => rows.length === 0} loading="loading" failed="failed" empty="empty">
          {(rows) => rows.join(',')}
        </ListResults>,
      ).container.textContent;
    expect(show({ isPending: true, isError: false })).toBe('loading');
    expect(show({ isPending: false, isError: true })).toBe('failed');
    expect(show({ isPending: false, isError: false, data: [] })).toBe('empty');
    expect(show({ isPending: false, isError: false, data: ['a', 'b'] })).toBe('a,b');
  });

  it('RecordsSection: the title and its action, then the table or the empty text', () => {
    const section = (isEmpty: boolean) => (
      <MantineProvider>
        <RecordsSection title="Invoices" action={<button>Add invoice</button>} isEmpty={isEmpty} emptyText="No records found" minWidth={520} tableTestId="invoices" head={<Table.Th>#</Table.Th>}>
          <Table.Tr data-testid="invoice">
            <Table.Td>7</Table.Td>
          </Table.Tr>
        </RecordsSection>
      </MantineProvider>
    );
    const { rerender } = render(section(false));
    expect(screen.getByRole('heading', { name: 'Invoices' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add invoice' })).toBeInTheDocument();
    expect(screen.getByTestId('invoices')).toContainElement(screen.getByTestId('invoice'));
    expect(screen.queryByText('No records found')).not.toBeInTheDocument();
    rerender(section(true));
    expect(screen.getByText('No records found')).toBeInTheDocument();
    expect(screen.queryByTestId('invoices')).not.toBeInTheDocument();
  });

  it('ListTable: header cells, then the rows, with the table props', () => {
    wrap(
      <ListTable minWidth={560} head={<Table.Th>Name</Table.Th>} data-testid="staff-table" aria-busy>
        <Table.Tr>
          <Table.Td>Eva</Table.Td>
        </Table.Tr>
      </ListTable>,
    );
    const table = screen.getByTestId('staff-table');
    expect(table).toHaveAttribute('aria-busy', 'true');
    expect(screen.getAllByRole('row').map((row) => row.textContent)).toEqual(['Name', 'Eva']);
  });

  it('ListPagination: page buttons only past one page', () => {
    const onChange = vi.fn();
    const { rerender } = wrap(<ListPagination total={1} value={1} onChange={onChange} />);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    rerender(
      <MantineProvider>
        <ListPagination total={3} value={1} onChange={onChange} />
      </MantineProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: '2' }));
    expect(onChange).toHaveBeenCalledWith(2);
  });
});
