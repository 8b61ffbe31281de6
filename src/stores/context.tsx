import { createContext, useContext, type PropsWithChildren } from 'react'
import type { RootStore } from './root-store'

export const StoresContext = createContext<RootStore | null>(null)

export function StoresProvider({ stores, children }: PropsWithChildren<{ stores: RootStore }>) {
  return <StoresContext.Provider value={stores}>{children}</StoresContext.Provider>
}

/** The RootStore of the nearest StoresProvider. */
export function useStores(): RootStore {
  const stores = useContext(StoresContext)
  if (!stores) throw new Error('useStores() needs a <StoresProvider> above it')
  return stores
}
