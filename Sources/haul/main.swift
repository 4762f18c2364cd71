print("haul: not built yet")
