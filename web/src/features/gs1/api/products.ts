import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiJson, apiRequest } from '@/lib/api-client'

/** A link of a product or lot (docs/API.md "GS1 Digital Link"). */
export interface ProductLink {
  linkType: string
  href: string
  title: string
  language?: string
  context?: string
  forward?: boolean
}

export interface Product {
  gtin: string
  name: string
  links: ProductLink[]
  lots: { lot: string; links: ProductLink[] }[]
  createdAt: string
  updatedAt: string
}

/** The link types the server accepts, the GS1 Web Vocabulary's. */
export const linkTypes = [
  'gs1:defaultLink', 'gs1:pip', 'gs1:recallStatus', 'gs1:instructions', 'gs1:certificationInfo', 'gs1:review',
  'gs1:allergenInfo', 'gs1:nutritionalInfo', 'gs1:ingredientsInfo', 'gs1:safetyInfo', 'gs1:sustainabilityInfo',
  'gs1:recyclingInfo', 'gs1:promotion', 'gs1:relatedVideo', 'gs1:traceability', 'gs1:productSustainabilityInfo',
  'gs1:epil', 'gs1:smpc', 'gs1:support', 'gs1:registerProduct', 'gs1:whatsInTheBox', 'gs1:faqs',
]

const productsKey = ['/api/gs1/products']

export function useProducts() {
  return useQuery<Product[]>({ queryKey: productsKey })
}

function useProductMutation<V, R>(call: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: call, onSuccess: () => queryClient.invalidateQueries({ queryKey: productsKey }) })
}

export function useCreateProduct() {
  return useProductMutation((p: Pick<Product, 'gtin' | 'name' | 'links'>) => apiJson<Product>('POST', '/api/gs1/products', { ...p, lots: [] }))
}

export function useUpdateProduct() {
  return useProductMutation((p: Product) => apiJson<Product>('PUT', `/api/gs1/products/${p.gtin}`, p))
}

export function useDeleteProduct() {
  return useProductMutation((gtin: string) => apiRequest('DELETE', `/api/gs1/products/${gtin}`))
}

export function useRecallLot() {
  return useProductMutation(({ gtin, lot, href }: { gtin: string; lot: string; href: string }) =>
    apiJson<Product>('POST', `/api/gs1/products/${gtin}/lots/${encodeURIComponent(lot)}/recall`, { href }),
  )
}
