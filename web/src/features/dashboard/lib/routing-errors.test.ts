import { describe, expect, it } from 'vitest'
import { routingFieldId, routingTabOf, tabsWithErrors, unplacedErrors } from './routing-errors'

describe('routing refusals', () => {
  it('places each field path beside its control', () => {
    expect(routingFieldId('rules.0.destination')).toBe('rule-0-destination')
    expect(routingFieldId('rules.2.when.country')).toBe('rule-2-country')
    expect(routingFieldId('rules.1.when.timeZone')).toBe('rule-1-tz')
    expect(routingFieldId('rules.1.when.to')).toBe('rule-1-to')
    expect(routingFieldId('rules.0.when.region')).toBe('rule-0-region')
    expect(routingFieldId('rules.3.when.city')).toBe('rule-3-city')
    expect(routingFieldId('split')).toBe('split-total')
    expect(routingFieldId('split.1.weight')).toBe('split-1-weight')
    expect(routingFieldId('expiresAt')).toBe('routing-expires')
    expect(routingFieldId('afterEnd')).toBe('routing-after-end')
    expect(routingFieldId('rules.0.then')).toBeUndefined()
    expect(routingFieldId('routing')).toBeUndefined()
  })

  it('finds the tab of the first refusal in the dialog order', () => {
    expect(routingTabOf('rules.0.when.os')).toBe('rules')
    expect(routingTabOf('split.0.destination')).toBe('split')
    expect(routingTabOf('scanLimit')).toBe('schedule')
    expect(tabsWithErrors({ expiresAt: 'x', 'split.0.weight': 'y' })).toEqual(['split', 'schedule'])
    expect(tabsWithErrors({ expiresAt: 'x', 'rules.3.destination': 'y', 'rules.1.when.os': 'z' })).toEqual(['rules', 'schedule'])
    expect(tabsWithErrors({})).toEqual([])
  })

  it('keeps the refusals no field shows for the footer', () => {
    expect(unplacedErrors({ 'rules.0.then': 'Rule 1: unknown field', expiresAt: 'The end must be after the start' })).toEqual(['Rule 1: unknown field'])
    // A region's or a city's refusal shows once, at its field.
    expect(unplacedErrors({ 'rules.0.when.region': 'Rule 1: regions and cities need a city database', 'rules.0.when.city': 'Rule 1: x' })).toEqual([])
  })
})
