data = input("name? ")
print(data)
